#!/usr/bin/env bash
# Checks the style and the image's build context (scripts/check-docker-context.sh: in seconds, that
# docker/Dockerfile's build finds every file it needs), then builds and runs every test twice: an
# optimised build (GCC, as shipped), and a debug build (engine invariants checked after every move)
# with the address and undefined-behaviour sanitizers; then a short run of the libFuzzer harnesses
# (tests/fuzz; a long run: docs/hosting.md "Fuzzing").
# The sanitizer build uses clang-14, which compiles it in half GCC's time (CI's budget is 25
# minutes on 2 cores), and so every push is also built by a second compiler. Its suite leaves out
# the browser tests: they check the page, which the optimised suite already does with the same
# server; the server under the sanitizers is exercised by the end-to-end tests. Both builds
# compile the test suites eight files to a unit, and the optimised one compiles them at -O1
# (tests/CMakeLists.txt; the code that ships keeps -O3): the suites' files were half the build.
# Exits non-zero on the first failure.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh test
jobs=$(nproc)
echo "== style"
scripts/check-format.sh
echo "== docker context"
scripts/check-docker-context.sh

run_suite() {  # name, build dir, ctest's extra arguments (split on spaces), cmake args...
  local name=$1 dir=$2 ctest_args=$3; shift 3
  echo "== $name build ($dir)"
  cmake -S . -B "$dir" -G Ninja "$@" >/dev/null
  cmake --build "$dir" -j "$jobs"
  echo "== $name tests"
  # shellcheck disable=SC2086
  # One test more than cores: e2e_cluster_tests mostly waits on its clusters' timers.
  ctest --test-dir "$dir" --output-on-failure -j "$((jobs + 1))" $ctest_args
}

run_suite release build-test "" -DCMAKE_BUILD_TYPE=Release
# An undefined-behaviour report names the calls that led there, not only the line of a header.
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}
run_suite sanitize build-asan "-E ^web_(browser|fairness|bots|match)$" \
  -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_COMPILER=clang++-14 -DCARCASSONNE_SANITIZE=ON

# The harnesses link the engine and the protocol only (clang, libFuzzer, ASan/UBSan). New inputs
# go to build-fuzz/corpus, never into the seed corpus of the repository.
fuzz_seconds=${CARCASSONNE_FUZZ_SECONDS:-15}
echo "== fuzz build (build-fuzz)"
cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=clang++-14 \
  -DCARCASSONNE_FUZZ=ON -DCARCASSONNE_TESTS=OFF >/dev/null
cmake --build build-fuzz -j "$jobs" --target fuzz_messages fuzz_move_codec fuzz_record
echo "== fuzz (${fuzz_seconds} s per harness)"
for h in messages move_codec record; do
  mkdir -p "build-fuzz/corpus/$h"
  log="build-fuzz/fuzz_$h.log"
  if ! build-fuzz/tests/fuzz/fuzz_$h -max_total_time="$fuzz_seconds" -timeout=10 \
      -rss_limit_mb=2048 -max_len=16384 -print_final_stats=1 -artifact_prefix=build-fuzz/ \
      "build-fuzz/corpus/$h" "tests/fuzz/corpus/$h" >"$log" 2>&1; then
    tail -n 60 "$log"
    echo "fuzz_$h failed: the input is in build-fuzz/ (crash-*, timeout-*, leak-*)"
    exit 1
  fi
  echo "fuzz_$h: $(grep -o 'number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$') inputs, no failure"
done
