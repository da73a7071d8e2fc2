#!/usr/bin/env bash
# Fails when docker/Dockerfile's build would fail for want of a file in its build context, in
# seconds rather than a build: the context (scripts/docker-context.sh: git's files less
# .dockerignore's) is copied to a temporary directory, every file the Dockerfile copies from it
# must be there, CMake configures it as the Dockerfile does (Release, CARCASSONNE_TESTS=OFF, g++:
# the image's only compiler), the generated sources (embedded tiles and web page) are generated,
# and every compile command of the carcassonne target is run by the preprocessor alone (-E): a
# header the context lacks (one under tests/, say) fails it as it fails the image's build.
# It does not compile or link, nor check what the binary reads at run time.
# Usage: scripts/check-docker-context.sh   (scripts/test.sh runs it)
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d "${TMPDIR:-/tmp}/docker-context.XXXXXX")
trap 'rm -rf "$work"' EXIT
src=$work/src build=$work/build
fail() {
  echo "docker context: FAIL: $*" >&2
  echo "docker context: the image's build (docker/Dockerfile) would fail; its context is the" \
    "repository less .dockerignore's patterns (scripts/docker-context.sh --list)" >&2
  exit 1
}

scripts/docker-context.sh "$src"

# The Dockerfile's own COPY sources (not those from another stage) must be in the context.
while read -r -a words; do
  [ "${words[0]:-}" = COPY ] || continue
  args=()
  for w in "${words[@]:1}"; do [[ $w == --* ]] || args+=("$w"); done
  [[ " ${words[*]} " == *" --from="* ]] && continue
  for s in "${args[@]:0:${#args[@]}-1}"; do
    [ "$s" = . ] || [ -e "$src/$s" ] || fail "docker/Dockerfile copies $s, which is not in the context"
  done
done <docker/Dockerfile

if ! cmake -S "$src" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCARCASSONNE_TESTS=OFF \
  -DCMAKE_CXX_COMPILER=g++ >"$work/configure.log" 2>&1; then
  sed "s#$src/##g" "$work/configure.log" >&2
  fail "CMake does not configure the context"
fi

# The compile commands of the shipped target's objects (and of the libraries it links), as Ninja
# runs them from the build directory.
mapfile -t compiles < <(ninja -C "$build" -t commands carcassonne | grep -E ' -c [^ ]+$')
[ ${#compiles[@]} -gt 0 ] || fail "no compile command for the carcassonne target"
# Sources generated in the build tree: generated first, by their own commands alone (Ninja would
# build the libraries their targets link before them).
mapfile -t generated < <(printf '%s\n' "${compiles[@]}" | sed -E 's/.* -c ([^ ]+)$/\1/' |
  grep -F "$build/" | sed "s#^$build/##")
for g in "${generated[@]}"; do
  if ! (cd "$build" && eval "$(ninja -t commands -s "$g")") >"$work/generate.log" 2>&1; then
    sed "s#$src/##g" "$work/generate.log" >&2
    fail "generating $g"
  fi
done

# Preprocess only: no object and no dependency file, one job per core; the first failure stops
# the launching of more.
# shellcheck disable=SC2016 # $1 is the inner shell's
printf '%s\n' "${compiles[@]}" |
  sed -E 's/ -MD -MT [^ ]+ -MF [^ ]+//; s/ -o [^ ]+ -c ([^ ]+)$/ -E -o \/dev\/null \1/' |
  (cd "$build" && xargs -d '\n' -n 1 -P "$(nproc)" sh -c 'eval "$1" || exit 255' sh) \
    2>"$work/preprocess.log" || {
  sed "s#$src/##g" "$work/preprocess.log" | head -n 20 >&2
  missing=$(sed -nE 's/.*fatal error: ([^:]+): No such file or directory.*/\1/p' \
    "$work/preprocess.log" | sort -u | tr '\n' ' ')
  fail "${missing:+missing from the context: $missing}(preprocessing the carcassonne target)"
}
echo "docker context: $(find "$src" -type f | wc -l) files; CMake configures them as the image" \
  "does; the ${#compiles[@]} sources of carcassonne preprocess"
