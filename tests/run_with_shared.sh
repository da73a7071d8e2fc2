#!/usr/bin/env bash
# Runs a test that reads the shared workspace (tests/CMakeLists.txt, carcassonne_shared_tests), or
# says that it is absent and exits 77, which CTest reports as skipped (SKIP_RETURN_CODE).
# Usage: run_with_shared.sh SHARED_DIR COMMAND [ARGS...]
set -euo pipefail
shared=$1
shift
if [ ! -d "$shared" ]; then
  echo "SKIPPED: $shared is absent (the shared workspace beside the clone, which CI lays out);" \
    "the test cases that compare with it did not run"
  exit 77
fi
exec "$@"
