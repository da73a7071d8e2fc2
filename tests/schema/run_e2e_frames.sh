#!/usr/bin/env bash
# Runs tests/schema/e2e_frames_test.mjs on the frame logs of e2e_tests and e2e_cluster_tests
# (tests/e2e/frame_log.hpp): every frame the C++ end-to-end tests sent and received, against the
# wire schema (docs/schema/):
#   tests/schema/run_e2e_frames.sh build/tests/e2e_frames.jsonl build/tests/e2e_cluster_frames.jsonl
# Installs Ajv (tests/schema/ensure_ajv.sh) when missing. Exit 77 (skipped) where node or npm is
# missing; 1 when a log is missing (its run had no CARCASSONNE_E2E_FRAME_LOG).
set -uo pipefail

[ $# -ge 1 ] || { echo "usage: run_e2e_frames.sh FRAME_LOG..." >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)

command -v node >/dev/null || { echo "run_e2e_frames: node is not installed: skipped" >&2; exit 77; }
command -v npm >/dev/null || [ -f "$here/../web/node_modules/ajv-formats/package.json" ] ||
  { echo "run_e2e_frames: npm is not installed: skipped" >&2; exit 77; }
"$here/ensure_ajv.sh" || { echo "run_e2e_frames: FAIL: Ajv could not be installed (npm ci in tests/web)" >&2; exit 1; }
for log in "$@"; do
  [ -s "$log" ] || { echo "run_e2e_frames: FAIL: no frame log $log (run e2e_tests through ctest first)" >&2; exit 1; }
done
exec node "$here/e2e_frames_test.mjs" "$@"
