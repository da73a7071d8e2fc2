#!/usr/bin/env bash
# The server's tests under ThreadSanitizer: a build of its own (build-tsan) and the suites that
# run threads (server_tests, e2e_tests). Not part of scripts/test.sh (it would not fit CI's time
# next to the release and address-sanitizer builds); run it before merging threading changes.
# Usage: scripts/tsan.sh [ctest -R regex]   (default: server_tests|e2e_tests)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh build
cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCARCASSONNE_SANITIZE_THREAD=ON >/dev/null
cmake --build build-tsan -j "$(nproc)" --target server_tests e2e_tests carcassonne
# halt_on_error: the first race fails the run; second_deadlock_stack for lock-order reports.
export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 ${TSAN_OPTIONS:-}"
ctest --test-dir build-tsan --output-on-failure -R "${1:-^(server_tests|e2e_tests)$}"
