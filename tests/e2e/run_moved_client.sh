#!/usr/bin/env bash
# Runs tests/e2e/moved_client.mjs (the web page's connection code under Node) against two
# `carcassonne serve --redis` instances on a private Redis:
#   tests/e2e/run_moved_client.sh path/to/carcassonne
# Skips (exit 77, with a message) where redis-server is missing.
set -uo pipefail

bin=${1:?usage: run_moved_client.sh path/to/carcassonne}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
pids=()
redis_port=
cleanup() {
  for p in "${pids[@]}"; do kill -KILL "$p" 2>/dev/null; done
  [ -n "$redis_port" ] && redis-cli -p "$redis_port" shutdown nosave >/dev/null 2>&1
  rm -rf "$work"
}
trap cleanup EXIT
fail() {
  echo "run_moved_client: FAIL: $*" >&2
  for f in "$work"/*.log; do echo "--- $f" >&2; cat "$f" >&2; done
  exit 1
}

command -v node >/dev/null || fail "node is not installed (scripts/install-deps.sh test)"
if ! command -v redis-server >/dev/null; then
  echo "run_moved_client: skipped: redis-server is not installed (scripts/install-deps.sh test)"
  exit 77
fi
"$here/../schema/ensure_ajv.sh" || fail "Ajv could not be installed (npm ci in tests/web)"
export NODE_PATH="/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}"

# A loopback port nothing listens on (the instances must know their public URL before binding).
# Taken below the kernel's ephemeral range: the other tests' servers (bound to port 0) and every
# client connection get their ports from that range, and one of them could take the port between
# this check and the bind (then /healthz would even be answered by another test's server).
ephemeral_low=$(cut -f1 /proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || echo 32768)
free_port() {
  local p
  for _ in $(seq 1 100); do
    p=$((10000 + RANDOM % (ephemeral_low - 10000)))
    (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null || { echo "$p"; return; }
  done
  fail "no free port"
}
healthy() {
  (exec 3<>"/dev/tcp/127.0.0.1/$1" &&
    printf 'GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n' >&3 &&
    head -n1 <&3) 2>/dev/null | grep -q "200"
}

redis_port=$(free_port)
redis-server --port "$redis_port" --bind 127.0.0.1 --save '' --appendonly no --dir "$work" \
  --daemonize yes --logfile "$work/redis.log" || fail "redis-server did not start"
for _ in $(seq 1 100); do redis-cli -p "$redis_port" ping >/dev/null 2>&1 && break; sleep 0.05; done

# a first: the least loaded at equal load (ties by id), so b's create_room is moved to a.
ports=()
for id in a b; do
  port=$(free_port)
  ports+=("$port")
  "$bin" serve --address 127.0.0.1 --port "$port" --threads 1 --journal off --log-level info \
    --redis "redis://127.0.0.1:$redis_port" --instance-id "$id" \
    --public-url "ws://127.0.0.1:$port/ws" >"$work/$id.log" 2>&1 &
  pids+=($!)
  ok=
  for _ in $(seq 1 200); do healthy "$port" && { ok=1; break; }; sleep 0.05; done
  [ -n "$ok" ] || fail "instance $id did not answer /healthz on port $port"
  kill -0 "${pids[-1]}" 2>/dev/null || fail "instance $id exited (port $port taken?)"
done

node "$here/moved_client.mjs" "ws://127.0.0.1:${ports[1]}/ws" "ws://127.0.0.1:${ports[0]}/ws" "$redis_port" ||
  fail "the client failed"
# Both instances stop cleanly on SIGTERM.
for p in "${pids[@]}"; do
  kill -TERM "$p"
  wait "$p" || fail "an instance exited with status $? after SIGTERM"
done
pids=()
