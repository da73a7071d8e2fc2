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
work=$(mktemp -d)
log=$work/server.log
server_pid=

fail() {
  echo "run_node_client: FAIL: $*" >&2
  echo "--- server log" >&2
  cat "$log" >&2 2>/dev/null
  exit 1
}
cleanup() {
  [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null && kill -KILL "$server_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

command -v node >/dev/null || fail "node is not installed (scripts/install-deps.sh test)"
# Debian's node-ws (scripts/install-deps.sh test) lives in /usr/share/nodejs, which the nodesource
# build of node does not search by itself.
export NODE_PATH="/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}"

"$bin" serve --address 127.0.0.1 --port 0 --threads 2 --allow-scripted true --log-level info --data-dir "$work/data" \
  >"$log" 2>&1 &
server_pid=$!

port=
for _ in $(seq 1 200); do
  port=$(sed -n 's/.*listening on 127\.0\.0\.1:\([0-9][0-9]*\) .*/\1/p' "$log" | head -n1)
  [ -n "$port" ] && break
  kill -0 "$server_pid" 2>/dev/null || fail "the server exited at startup"
  sleep 0.05
done
[ -n "$port" ] || fail "no 'listening on' line in the server log"

# GET /healthz with bash's /dev/tcp, in a subshell (no curl needed); prints the status line.
healthz() {
  (exec 3<>"/dev/tcp/127.0.0.1/$1" &&
    printf 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n' >&3 &&
    head -n1 <&3) 2>/dev/null
}
healthy=
for _ in $(seq 1 100); do
  case $(healthz "$port") in "HTTP/1.1 200"*) healthy=1; break ;; esac
  sleep 0.05
done
[ -n "$healthy" ] || fail "/healthz did not answer 200 on port $port"

start=$(date +%s%N)
node "$here/node_client.mjs" "ws://127.0.0.1:$port/ws" $seed
client_status=$?
echo "run_node_client: client finished in $(( ($(date +%s%N) - start) / 1000000 )) ms with status $client_status"

kill -TERM "$server_pid"
wait "$server_pid"
server_status=$?
server_pid=
[ "$server_status" -eq 0 ] || fail "the server exited with status $server_status after SIGTERM"
grep -q "stopped" "$log" || fail "the server did not log 'stopped'"
[ "$client_status" -eq 0 ] || { echo "--- server log" >&2; cat "$log" >&2; }
exit "$client_status"
