#!/usr/bin/env bash
# Runs the browser test (tests/web/web_test.mjs, or another scenario of tests/web) against a
# real server:
#   tests/web/run_web_test.sh path/to/carcassonne [ARTIFACTS_DIR] [SCENARIO.mjs]
# Installs what it needs when it is missing: Debian's chromium (apt-get) and playwright-core and
# Ajv (npm ci, pinned by package-lock.json, into tests/web/node_modules; every frame of the
# pages is checked against the wire schema, harness.mjs). Starts
# `carcassonne serve --port 0 --allow-scripted true` on loopback, reads the port from the log,
# waits for /healthz, runs the test, stops the server with SIGTERM. Screenshots go to
# ARTIFACTS_DIR (default: web-artifacts beside the binary). Exits with the test's status, or 77
# (skipped, for CTest) when Chromium or playwright-core cannot be installed here.
set -uo pipefail

bin=${1:?usage: run_web_test.sh path/to/carcassonne [ARTIFACTS_DIR]}
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
artifacts=${2:-$(dirname "$bin")/web-artifacts}
scenario=${3:-web_test.mjs}
here=$(cd "$(dirname "$0")" && pwd)
test_name=run_web_test
. "$here/../e2e/test_server.sh"

skip() { echo "run_web_test: SKIPPED: $*" >&2; exit 77; }

sudo=""
[ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null && sudo="sudo -n"
if ! command -v chromium >/dev/null; then
  echo "run_web_test: installing Debian's chromium" >&2
  { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends chromium; } >&2 ||
    skip "chromium is not installed and could not be installed (scripts/install-deps.sh test)"
fi
command -v node >/dev/null && command -v npm >/dev/null || skip "node and npm are needed (scripts/install-deps.sh test)"
if [ ! -f "$here/node_modules/playwright-core/package.json" ] || [ ! -f "$here/node_modules/ajv-formats/package.json" ]; then
  # One installer at a time (two build trees may run their tests at once).
  (
    flock 9
    [ -f "$here/node_modules/playwright-core/package.json" ] && [ -f "$here/node_modules/ajv-formats/package.json" ] ||
      (cd "$here" && npm ci --no-audit --no-fund --prefer-offline --loglevel=error) >&2
  ) 9>"$here/.npm-install.lock" || skip "npm ci of playwright-core failed"
fi

start_server "$bin"

rm -rf "$artifacts"
mkdir -p "$artifacts"
node "$here/$scenario" "http://127.0.0.1:$port" "$bin" "$artifacts"
test_status=$?

stop_server
[ "$test_status" -eq 0 ] || { echo "--- server log" >&2; tail -n 50 "$log" >&2; exit "$test_status"; }
[ "$server_status" -eq 0 ] || fail "the server exited with status $server_status after SIGTERM"
echo "run_web_test: ok; screenshots in $artifacts"
