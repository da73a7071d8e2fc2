#!/usr/bin/env bash
# Builds and runs every test twice: an optimised build, and a debug build (engine invariants
# checked after every move) with the address and undefined-behaviour sanitizers.
# Exits non-zero on the first failure.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh test
jobs=$(nproc)
echo "== style"
scripts/check-format.sh

run_suite() {  # name, build dir, cmake args...
  local name=$1 dir=$2; shift 2
  echo "== $name build ($dir)"
  cmake -S . -B "$dir" -G Ninja "$@" >/dev/null
  cmake --build "$dir" -j "$jobs"
  echo "== $name tests"
  ctest --test-dir "$dir" --output-on-failure -j "$jobs"
}

run_suite release build-test -DCMAKE_BUILD_TYPE=Release
run_suite sanitize build-asan -DCMAKE_BUILD_TYPE=Debug -DCARCASSONNE_SANITIZE=ON
