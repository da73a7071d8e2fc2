#!/usr/bin/env bash
# The side-by-side measurement of docs/performance.md: the bare Beast echo server, then the game
# server under `loadtest`, each on the same machine, the server's CPU read from /proc/<pid>/stat
# and its frames from /metrics (echo: two frames per round trip). Prints one line per run.
#   tests/bench/side_by_side.sh BUILD_DIR ROOMS [SECONDS] [SERVE_THREADS] [extra serve args...]
#   BUILD_DIR: a Release build with `carcassonne` and `echo_bench` built. ROOMS of 4 clients.
#   LOADTEST_BIN: another build's carcassonne for the load tool (to compare load tools).
#   PERF=stat: also counts the server's syscalls and context switches (perf stat, root).
#   WARM=SECONDS: how long to let the rooms join and start before measuring.
#   PIN=1: the servers on CPU 0, the clients and load tool on CPU 1 (taskset): less noise on a
#   2-core VM, where the two otherwise share and trade cores run by run.
#   SCRIPTED=1: serve with --allow-scripted true, so that loadtest seeds its rooms and follows each
#   game with its own engine (a cheaper load tool). Without it (the default) the rooms are fair
#   rooms, as a server in its shipped configuration makes them, and every client keeps its view.
set -euo pipefail
build=$1
rooms=$2
seconds=${3:-10}
threads=${4:-1}
shift $(($# < 4 ? $# : 4))
bin=$build/carcassonne
echo_bin=$build/echo_bench
[[ -x $echo_bin ]] || echo_bin=$build/tests/echo_bench  # where the CMake build puts it
clients=$((rooms * 4))
port=$((20000 + RANDOM % 20000))
tick=$(getconf CLK_TCK)
server_cpu=() client_cpu=()
if [[ ${PIN:-0} == 1 ]]; then server_cpu=(taskset -c 0) client_cpu=(taskset -c 1); fi
scripted=()
if [[ ${SCRIPTED:-0} == 1 ]]; then scripted=(--allow-scripted true); fi

cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
frames() {
  curl -s "http://127.0.0.1:$port/metrics" |
    awk '/^carcassonne_messages_(in|out)_total /{s += $2} END {print s}'
}
moves() {
  curl -s "http://127.0.0.1:$port/metrics" | awk '/^carcassonne_moves_accepted_total /{print $2}'
}

if [[ ${ECHO:-1} == 1 ]]; then
  "${server_cpu[@]}" "$echo_bin" server "$port" 1 &
  echo_pid=$!
  sleep 0.5
  c0=$(cpu_ticks $echo_pid)
  out=$("${client_cpu[@]}" "$echo_bin" client "$port" "$clients" "$seconds" 1)
  c1=$(cpu_ticks $echo_pid)
  kill $echo_pid
  wait $echo_pid 2>/dev/null || true
  rt=$(sed 's/.*"round_trips_per_second":\([0-9.]*\).*/\1/' <<<"$out")
  ran=$(sed 's/.*"seconds":\([0-9.]*\).*/\1/' <<<"$out")  # more than SECONDS when the timer fired late
  awk -v rt="$rt" -v s="$ran" -v c=$((c1 - c0)) -v t="$tick" -v n="$clients" 'BEGIN {
    cpu = c / t; printf "echo  connections=%d frames/s=%.0f cpu_s=%.2f frames_per_cpu_s=%.0f\n",
      n, 2 * rt, cpu, (cpu > 0 ? 2 * rt * s / cpu : 0) }'
  port=$((port + 1))
fi

data=$(mktemp -d)
"${server_cpu[@]}" "$bin" serve --port "$port" --threads "$threads" --data-dir "$data" --log-level warn \
  --message-rate 100000 --message-burst 100000 --max-connections 100000 \
  --max-connections-per-address 100000 "${scripted[@]}" "$@" &
serve_pid=$!
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.1; done
rss0=$(awk '/VmRSS/{print $2}' "/proc/$serve_pid/status")
anon0=$(awk '/RssAnon/{print $2}' "/proc/$serve_pid/status")
"${client_cpu[@]}" "${LOADTEST_BIN:-$bin}" loadtest --port "$port" --rooms "$rooms" --clients-per-room 4 --duration "$seconds" \
  ${LOADTEST_ARGS:-} >"$data/load.json" &
load_pid=$!
# Measure the steady part: after the load tool's warm-up (a fifth, at most 2 s), until its end.
# WARM=SECONDS overrides it (thousands of rooms take longer to join and start).
warm=${WARM:-$(awk -v s="$seconds" 'BEGIN { w = s / 5; print (w < 2 ? w : 2) + 0.3 }')}
sleep "$warm"
f0=$(frames)
m0=$(moves)
c0=$(cpu_ticks $serve_pid)
l0=$(cpu_ticks $load_pid)
rss1=$(awk '/VmRSS/{print $2}' "/proc/$serve_pid/status")
anon1=$(awk '/RssAnon/{print $2}' "/proc/$serve_pid/status")
window=$(awk -v s="$seconds" -v w="$warm" 'BEGIN { print s - w - 1.5 }')
if [[ ${PERF:-} == stat ]]; then
  perf stat -x, -e raw_syscalls:sys_enter,context-switches -p $serve_pid -o "$data/perf.txt" \
    -- sleep "$window"
else
  sleep "$window"
fi
# The load tool's CPU first: under thousands of connections the server answers /metrics late,
# and the load tool may have ended by then (its CPU then counts as 0).
l1=$(cpu_ticks $load_pid 2>/dev/null || echo "$l0")
c1=$(cpu_ticks $serve_pid)
f1=$(frames)
m1=$(moves)
wait $load_pid || true
kill $serve_pid
wait $serve_pid 2>/dev/null || true
awk -v f=$((f1 - f0)) -v m=$((m1 - m0)) -v c=$((c1 - c0)) -v t="$tick" -v w="$window" -v n="$clients" \
  -v rss="$((rss1 - rss0))" -v anon="$((anon1 - anon0))" -v r="$rooms" -v l=$((l1 - l0)) 'BEGIN {
  cpu = c / t
  fmt = "serve connections=%d frames/s=%.0f cpu_s=%.2f frames_per_cpu_s=%.0f"
  fmt = fmt " moves_per_cpu_s=%.0f moves/s=%.0f rss_per_room_kb=%.1f anon_per_room_kb=%.1f"
  fmt = fmt " load_cpu_us_per_move=%.0f\n"
  printf fmt, n, f / w, cpu, (cpu > 0 ? f / cpu : 0),
    (cpu > 0 ? m / cpu : 0), m / w, rss / r, anon / r, (m > 0 ? l / t * 1e6 / m : 0) }'
if [[ -f $data/perf.txt ]]; then
  awk -F, -v m=$((m1 - m0)) '/sys_enter|context-switches/ {
    printf "perf  %s=%s per_move=%.2f\n", $3, $1, $1 / m }' "$data/perf.txt"
fi
echo "load  $(cat "$data/load.json")"
rm -rf "$data"
