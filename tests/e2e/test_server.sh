# Sourced by the end-to-end scripts that drive a real `carcassonne serve` (run_node_client.sh,
# tests/web/run_web_test.sh). Set `test_name` before sourcing. Gives:
#   fail MESSAGE         print it and the server log, exit 1
#   start_server BIN     serve on a free loopback port (read from the "listening on" log line)
#                        with scripted rooms allowed, bots at normal priority (at idle priority
#                        they get no CPU while other tests keep the cores busy) and its database
#                        in a temporary folder;
#                        waits for /healthz 200 and sets $port
#   stop_server          SIGTERM; sets $server_status (0 expected)
# The server is killed and the temporary folder removed when the script exits.
work=$(mktemp -d)
log=$work/server.log
server_pid=

fail() {
  echo "$test_name: FAIL: $*" >&2
  echo "--- server log" >&2
  cat "$log" >&2 2>/dev/null
  exit 1
}
cleanup() {
  [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null && kill -KILL "$server_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

# GET /healthz with bash's /dev/tcp, in a subshell (no curl needed); prints the status line.
healthz() {
  (exec 3<>"/dev/tcp/127.0.0.1/$1" &&
    printf 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n' >&3 &&
    head -n1 <&3) 2>/dev/null
}

start_server() {
  "$1" serve --address 127.0.0.1 --port 0 --threads 2 --allow-scripted true --log-level info \
    --bot-priority normal --data-dir "$work/data" >"$log" 2>&1 &
  server_pid=$!
  port=
  for _ in $(seq 1 200); do
    port=$(sed -n 's/.*listening on 127\.0\.0\.1:\([0-9][0-9]*\) .*/\1/p' "$log" | head -n1)
    [ -n "$port" ] && break
    kill -0 "$server_pid" 2>/dev/null || fail "the server exited at startup"
    sleep 0.05
  done
  [ -n "$port" ] || fail "no 'listening on' line in the server log"
  local healthy=
  for _ in $(seq 1 100); do
    case $(healthz "$port") in "HTTP/1.1 200"*) healthy=1; break ;; esac
    sleep 0.05
  done
  [ -n "$healthy" ] || fail "/healthz did not answer 200 on port $port"
}

stop_server() {
  kill -TERM "$server_pid"
  wait "$server_pid"
  server_status=$?
  server_pid=
}
