#!/usr/bin/env bash
# Runs tests/e2e/node_client.mjs (Node's `ws` package as the client) against a real server:
#   tests/e2e/run_node_client.sh path/to/carcassonne [SEED]
# Starts `carcassonne serve` on a free loopback port (--port 0, port read from the "listening on"
# log line), waits for /healthz, runs the Node client, stops the server with SIGTERM and checks
# that it exits 0. Exits with the client's status (or 1 when the server misbehaves).
set -uo pipefail

bin=${1:?usage: run_node_client.sh path/to/carcassonne [SEED]}
seed=${2:-}
here=$(cd "$(dirname "$0")" && pwd)
test_name=run_node_client
. "$here/test_server.sh"

command -v node >/dev/null || fail "node is not installed (scripts/install-deps.sh test)"
# Debian's node-ws (scripts/install-deps.sh test) lives in /usr/share/nodejs, which the nodesource
# build of node does not search by itself.
# Ajv for the wire schema (tests/schema/wire_schema.mjs), from tests/web's pinned packages.
"$here/../schema/ensure_ajv.sh" || fail "Ajv could not be installed (npm ci in tests/web)"
export NODE_PATH="/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}"

start_server "$bin"

start=$(date +%s%N)
node "$here/node_client.mjs" "ws://127.0.0.1:$port/ws" $seed
client_status=$?
echo "run_node_client: client finished in $(( ($(date +%s%N) - start) / 1000000 )) ms with status $client_status"

stop_server
[ "$server_status" -eq 0 ] || fail "the server exited with status $server_status after SIGTERM"
grep -q "stopped" "$log" || fail "the server did not log 'stopped'"
[ "$client_status" -eq 0 ] || { echo "--- server log" >&2; cat "$log" >&2; }
exit "$client_status"
