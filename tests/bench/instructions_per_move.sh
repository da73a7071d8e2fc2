#!/usr/bin/env bash
# The server's user-space instructions per move, counted by callgrind: a figure that does not
# move with the machine's load, unlike CPU time (on a shared 2-core VM two runs of
# side_by_side.sh differ by up to ±30%). Kernel work (the sends, the journal's syncs) is not in
# it: read it beside the syscalls per move of `PERF=stat side_by_side.sh`.
#   tests/bench/instructions_per_move.sh BUILD_DIR [ROOMS] [SECONDS] [RATE] [extra serve args...]
#   ROOMS of 4 clients (10), counted for SECONDS (20) after a warm-up, at RATE moves a second
#   over all rooms (100: the server runs about 50 times slower under callgrind).
#   SCRIPTED=1: serve with --allow-scripted true (loadtest then seeds its rooms); without it (the
#   default) the rooms are fair rooms, as in the server's shipped configuration, and the load
#   tool, which paces seeded rooms only, plays them as fast as the server answers (RATE unused).
# Prints: moves, instructions, instructions_per_move.
set -euo pipefail
build=$1
rooms=${2:-10}
seconds=${3:-20}
rate=${4:-100}
shift $(($# < 4 ? $# : 4))
port=$((20000 + RANDOM % 20000))
scripted=()
if [[ ${SCRIPTED:-0} == 1 ]]; then scripted=(--allow-scripted true); fi
data=$(mktemp -d)
trap '[[ -n ${KEEP:-} ]] && cp "$data"/cg.*.* "$KEEP" 2>/dev/null; rm -rf "$data"' EXIT
moves() {
  curl -s "http://127.0.0.1:$port/metrics" | awk '/^carcassonne_moves_accepted_total /{print $2}'
}
valgrind --tool=callgrind --callgrind-out-file="$data/cg.%p" --dump-instr=no \
  "$build/carcassonne" serve --port "$port" --threads 1 --data-dir "$data/db" --log-level warn \
  --message-rate 100000 --message-burst 100000 "${scripted[@]}" "$@" 2>"$data/valgrind.log" &
serve_pid=$!
for _ in $(seq 300); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.2; done
"$build/carcassonne" loadtest --port "$port" --rooms "$rooms" --clients-per-room 4 \
  --rate "$rate" --duration $((seconds + 15)) >"$data/load.json" &
load_pid=$!
sleep 10  # seated and playing
callgrind_control -z "$serve_pid" >/dev/null 2>&1
m0=$(moves)
sleep "$seconds"
m1=$(moves)
callgrind_control -d "$serve_pid" >/dev/null 2>&1
kill "$load_pid" 2>/dev/null || true
wait "$load_pid" 2>/dev/null || true
kill "$serve_pid"
wait "$serve_pid" 2>/dev/null || true
# The dump after zeroing: its "summary:" (or "totals:") line is the instructions since then.
instr=0
for f in "$data"/cg.*.*; do
  [[ -f $f ]] || continue
  n=$(awk '/^(summary|totals):/{print $2; exit}' "$f")
  instr=$((instr + ${n:-0}))
done
awk -v m=$((m1 - m0)) -v i="$instr" 'BEGIN {
  printf "moves=%d instructions=%.0f instructions_per_move=%.0f\n", m, i, (m > 0 ? i / m : 0) }'
