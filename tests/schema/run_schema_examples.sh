#!/usr/bin/env bash
# Runs tests/schema/examples_test.mjs: every JSON example of docs/protocol.md against the wire
# schema, the views and events of the test records as `carcassonne replay` makes them, then the
# documented bad input against a real server (schema and server must agree):
#   tests/schema/run_schema_examples.sh path/to/carcassonne
# Installs Ajv (tests/schema/ensure_ajv.sh) when missing; starts `carcassonne serve` on a free
# loopback port as the other Node tests do, and stops it with SIGTERM.
set -uo pipefail

bin=${1:?usage: run_schema_examples.sh path/to/carcassonne}
here=$(cd "$(dirname "$0")" && pwd)
test_name=run_schema_examples
. "$here/../e2e/test_server.sh"

command -v node >/dev/null || fail "node is not installed (scripts/install-deps.sh test)"
"$here/ensure_ajv.sh" || fail "Ajv could not be installed (npm ci in tests/web)"
export NODE_PATH="/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}"

start_server "$bin"
node "$here/examples_test.mjs" "ws://127.0.0.1:$port/ws" "$bin"
status=$?
stop_server
[ "$server_status" -eq 0 ] || fail "the server exited with status $server_status after SIGTERM"
[ "$status" -eq 0 ] || { echo "--- server log" >&2; tail -n 30 "$log" >&2; }
exit "$status"
