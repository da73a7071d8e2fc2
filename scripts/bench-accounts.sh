#!/bin/bash
# Sign-ins per second (docs/hosting.md "Accounts"): a server on port 18510 with a fresh SQLite
# database, one claimed name, then N sign-ins by name and password from C parallel clients (curl);
# prints the sign-ins per second and the server's CPU seconds per sign-in (argon2id on its two
# accounts workers). Usage: scripts/bench-accounts.sh [N=200] [C=4]
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-200}; C=${2:-4}; PORT=18510; DIR=$(mktemp -d)
trap 'kill $pid 2>/dev/null || true; rm -rf "$DIR"' EXIT
build/carcassonne serve --port $PORT --data-dir "$DIR" --log-level warn &
pid=$!
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$PORT/healthz" >/dev/null && break; sleep 0.1; done
post() { curl -s -H 'Content-Type: application/json' -d "$2" "http://127.0.0.1:$PORT$1" "${@:3}"; }
session=$(post /api/guest '{}' | sed 's/.*"session":"\([0-9a-f]*\)".*/\1/')
post /api/me/name '{"name":"Bench Player","password":"tiles and meeples"}' \
  -H "Authorization: Bearer $session" >/dev/null
ticks() { awk '{print $14+$15}' /proc/$pid/stat; }
cpu0=$(ticks); t0=$(date +%s.%N)
seq "$N" | xargs -P "$C" -I{} curl -s -o /dev/null -w '%{http_code}\n' \
  -H 'Content-Type: application/json' -d '{"name":"Bench Player","password":"tiles and meeples"}' \
  "http://127.0.0.1:$PORT/api/sign-in" | sort | uniq -c
t1=$(date +%s.%N); cpu1=$(ticks); hz=$(getconf CLK_TCK)
awk -v n="$N" -v t="$(echo "$t1 - $t0" | bc)" -v cpu="$(( cpu1 - cpu0 ))" -v hz="$hz" \
  'BEGIN { printf "%d sign-ins in %.2f s: %.1f per second; server CPU %.1f ms per sign-in\n", n, t, n / t, 1000 * cpu / hz / n }'
