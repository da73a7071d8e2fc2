#!/usr/bin/env bash
# Where the server's CPU goes under load (docs/performance.md "Where the CPU goes"): `serve`
# under `loadtest`, sampled with perf's DWARF call graphs, then each sample put in one category
# by its stack (SQLite, kernel send, malloc, JSON, Beast/Asio, our code...) and the inclusive
# share of the functions named on the command line. Root (perf).
#   tests/bench/where_cpu_goes.sh BUILD_DIR [ROOMS] [SERVE_THREADS] [FUNCTION...]
#   e.g. tests/bench/where_cpu_goes.sh build 50 1 room::broadcast websocket_session::on_read
#   SCRIPTED=1: serve with --allow-scripted true (loadtest then seeds its rooms); without it (the
#   default) the rooms are fair rooms, as in the server's shipped configuration.
set -euo pipefail
build=$1
rooms=${2:-50}
threads=${3:-1}
shift $(($# < 3 ? $# : 3))
bin=$build/carcassonne
port=$((20000 + RANDOM % 20000))
data=$(mktemp -d)
scripted=()
if [[ ${SCRIPTED:-0} == 1 ]]; then scripted=(--allow-scripted true); fi
"$bin" serve --port "$port" --threads "$threads" --data-dir "$data" --log-level warn \
  --message-rate 100000 --message-burst 100000 --max-connections 100000 \
  --max-connections-per-address 100000 "${scripted[@]}" &
serve_pid=$!
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.1; done
"$bin" loadtest --port "$port" --rooms "$rooms" --clients-per-room 4 --duration 10 >"$data/load.json" &
load_pid=$!
sleep 3  # joined and playing
perf record -F "${FREQ:-400}" --call-graph dwarf,16384 -p $serve_pid -o "$data/perf.data" \
  -- sleep 5 >/dev/null 2>&1
wait $load_pid || true
kill $serve_pid
wait $serve_pid 2>/dev/null || true
perf script -i "$data/perf.data" -F comm,tid,ip,sym,dso 2>/dev/null >"$data/stacks.txt"
python3 "$(dirname "$0")/cpu_categories.py" "$data/stacks.txt" "$@"
rm -rf "$data"
