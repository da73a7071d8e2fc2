#!/bin/bash
# Notifications delivered per second by one instance, and the delay from a move to its webhook,
# with slow webhooks in the mix (docs/hosting.md "Notifications"): GAMES correspondence games on
# the in-process server (SQLite, --notify-batch-s 0), one in SLOW_EVERY with webhooks that never
# answer (tests/e2e/notify_bench.cpp says how it plays). Needs the Release build of e2e_tests.
# Usage: scripts/bench-notify.sh [GAMES=100] [SLOW_EVERY=10] [DURATION=60]
set -euo pipefail
cd "$(dirname "$0")/.."
GAMES=${1:-100} SLOW_EVERY=${2:-10} DURATION=${3:-60} \
  build/tests/e2e_tests -tc="bench notify*" --no-skip | grep '^bench notify'
