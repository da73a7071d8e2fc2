"""Reads `perf script -F comm,tid,ip,sym,dso` output (call graphs) and prints the share of samples
per category, judged by the stack, then the inclusive share of each function named after the
file. Used by where_cpu_goes.sh."""
import collections
import re
import sys

# glibc's malloc by its functions; jemalloc's (most of them static) by its library, which
# read_stacks puts before the function's name.
MALLOC = re.compile(r"^(_int_malloc|_int_free|malloc|cfree|__GI___libc_malloc|__GI___libc_free|"
                    r"malloc_consolidate|unlink_chunk|tcache|operator new|operator delete|"
                    r"libjemalloc)")
SYSCALLS = ["sendmsg", "recvmsg", "epoll_wait", "epoll_ctl", "fdatasync", "futex", "pwrite",
            "fcntl"]


def read_stacks(path):
    stack = []
    for line in open(path, errors="replace"):
        if not line.strip():
            if stack:
                yield stack
            stack = []
        elif line[0] not in " \t":
            stack = []
        else:
            parts = line.strip().split(None, 1)
            frame = parts[1] if len(parts) > 1 else "?"
            dso = re.search(r" \(([^()]*)\)$", frame)  # with perf script's dso field
            if dso:
                frame = frame[:dso.start()]
            frame = re.sub(r"\+0x[0-9a-f]+$", "", frame)
            if dso and "libjemalloc" in dso.group(1):
                frame = "libjemalloc " + frame
            stack.append(frame)
    if stack:
        yield stack


def category(stack):
    leaf = stack[0]
    if any("sqlite3" in s for s in stack):
        return "SQLite (with its system calls)"
    if MALLOC.match(leaf):
        return "malloc/free"
    if "nlohmann" in leaf:
        return "nlohmann::json"
    if "boost::" in leaf:
        return "Beast/Asio (user space)"
    if "carcassonne::" in leaf:
        return "carcassonne (engine, protocol, server)"
    if re.search(r"mem(cpy|move|cmp|set)|strlen|__mem", leaf):
        return "libc memcpy/memcmp/strlen"
    if "std::" in leaf:
        return "libstdc++ (strings, trees)"
    for call in SYSCALLS:
        if any(call in s for s in stack):
            return "kernel: " + call
    return "other"


def main():
    stacks = list(read_stacks(sys.argv[1]))
    total = len(stacks) or 1
    counts = collections.Counter(category(s) for s in stacks)
    print(f"samples {len(stacks)}")
    for name, n in counts.most_common():
        print(f"{100 * n / total:5.1f}%  {name}")
    for fn in sys.argv[2:]:
        n = sum(1 for s in stacks if any(fn in f for f in s))
        print(f"{100 * n / total:5.1f}%  inclusive: {fn}")


main()
