#!/usr/bin/env bash
# Spectators at scale, side by side with the bare Beast echo server (docs/performance.md's method):
# the echo server with N connections in a closed loop, then the game server with one seeded room
# of two players moving RATE times a second and N spectators (`loadtest --spectators`, on their
# own load-tool threads). Prints, for each: frames a second, server CPU, frames per CPU second;
# for the game server also the server's CPU per spectator frame, the players' move latency, the
# latency from a move sent to the last spectator having its patch, and memory per spectator.
#   tests/bench/spectators_side_by_side.sh BUILD_DIR N [SECONDS] [RATE] [extra serve args...]
#   DELAY=MOVES: the room's spectators watch that many moves behind (create_room's
#   spectator_delay).
#   PIN=1: servers on CPU 0, clients on CPU 1. WATCH_THREADS: the load tool's spectator threads (1).
# Between the two, the bare broadcast (echo_bench hub/listen): N listeners, one frame RATE times
# a second, its CPU per frame and the latency to the last listener (ECHO=0 skips both).
# Also prints how the N spectators, opening at once, were admitted (loadtest's
# `spectators.admitted`) and the kernel's listen queue overflows meanwhile (nstat, whole machine).
set -euo pipefail
build=$1
n=$2
seconds=${3:-20}
rate=${4:-5}
shift $(($# < 4 ? $# : 4))
bin=$build/carcassonne
echo_bin=$build/tests/echo_bench
port=$((20000 + RANDOM % 20000))
tick=$(getconf CLK_TCK)
server_cpu=() client_cpu=()
if [[ ${PIN:-0} == 1 ]]; then server_cpu=(taskset -c 0) client_cpu=(taskset -c 1); fi
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
# The steady part of each run: after the connections are in (WARM seconds, default a quarter of
# the run) until a second before its end.
warm=${WARM:-$(awk -v s="$seconds" 'BEGIN { print s / 4 }')}
window=$(awk -v s="$seconds" -v w="$warm" 'BEGIN { print s - w - 1 }')
metric() { curl -s "http://127.0.0.1:$port/metrics" | awk -v k="$1" '$1 == k {print $2}'; }

if [[ ${ECHO:-1} == 1 && $n -gt 0 ]]; then
  "${server_cpu[@]}" "$echo_bin" server "$port" 1 &
  echo_pid=$!
  sleep 0.5
  c0=$(cpu_ticks $echo_pid)
  out=$("${client_cpu[@]}" "$echo_bin" client "$port" "$n" "$seconds" 1)
  c1=$(cpu_ticks $echo_pid)
  kill $echo_pid
  wait $echo_pid 2>/dev/null || true
  rt=$(sed 's/.*"round_trips_per_second":\([0-9.]*\).*/\1/' <<<"$out")
  ran=$(sed 's/.*"seconds":\([0-9.]*\).*/\1/' <<<"$out")
  awk -v rt="$rt" -v s="$ran" -v c=$((c1 - c0)) -v t="$tick" -v n="$n" 'BEGIN {
    cpu = c / t; printf "echo  connections=%d frames/s=%.0f cpu_s=%.2f us_per_frame=%.2f\n",
      n, 2 * rt, cpu, (rt > 0 ? cpu * 1e6 / (2 * rt * s) : 0) }'
  port=$((port + 1))
fi

# The bare broadcast: a Beast hub writing each frame of one sender to N listeners (one thread of
# the client, as the spectators'), RATE frames a second of 400 bytes (about a spectator's patch):
# what delivering a patch to N connections costs on this machine with nothing else to do.
if [[ ${ECHO:-1} == 1 && $n -gt 0 ]]; then
  bcast_out=$(mktemp)
  "${server_cpu[@]}" "$echo_bin" hub "$port" &
  hub_pid=$!
  sleep 0.5
  "${client_cpu[@]}" "$echo_bin" listen "$port" "$n" "$seconds" "$rate" >"$bcast_out" &
  listen_pid=$!
  sleep "$warm"
  c0=$(cpu_ticks $hub_pid)
  sleep "$window"
  c1=$(cpu_ticks $hub_pid)
  wait $listen_pid || true
  kill $hub_pid
  wait $hub_pid 2>/dev/null || true
  out=$(cat "$bcast_out")
  rm -f "$bcast_out"
  fps=$(sed 's/.*"frames_per_second":\([0-9.]*\).*/\1/' <<<"$out")
  b50=$(sed 's/.*"latency_to_last_ms":{"p50":\([0-9.]*\).*/\1/' <<<"$out")
  b99=$(sed 's/.*"latency_to_last_ms":{[^}]*"p99":\([0-9.]*\).*/\1/' <<<"$out")
  awk -v f="$fps" -v c=$((c1 - c0)) -v t="$tick" -v w="$window" -v n="$n" -v p="$b50" \
    -v q="$b99" 'BEGIN { cpu = c / t
    printf "bcast listeners=%d frames/s=%.0f cpu_s=%.2f us_per_frame=%.2f last_p50_ms=%s", n, f,
      cpu, (f > 0 ? cpu * 1e6 / (f * w) : 0), p
    printf " last_p99_ms=%s\n", q }'
  port=$((port + 1))
fi

data=$(mktemp -d)
trap 'rm -rf "$data"' EXIT
"${server_cpu[@]}" "$bin" serve --port "$port" --data-dir "$data/db" --log-level warn \
  --allow-scripted true --max-connections 100000 --max-connections-per-address 100000 \
  --max-spectators 100000 "$@" &
serve_pid=$!
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.1; done
rss0=$(awk '/VmRSS/{print $2}' "/proc/$serve_pid/status")
listen_overflows() { nstat -asz TcpExtListenOverflows | awk '/^Tcp/ { print $2 }'; }
overflows0=$(listen_overflows)
match=()
if [[ -n ${DELAY:-} ]]; then match=(--spectator-delay "$DELAY"); fi
"${client_cpu[@]}" "$bin" loadtest --port "$port" --rooms 1 --clients-per-room 2 --rate "$rate" \
  --duration "$seconds" --spectators "$n" --spectator-threads "${WATCH_THREADS:-1}" "${match[@]}" \
  >"$data/load.json" &
load_pid=$!
sleep "$warm"
f0=$(metric carcassonne_messages_out_total)
c0=$(cpu_ticks $serve_pid)
rss1=$(awk '/VmRSS/{print $2}' "/proc/$serve_pid/status")
sleep "$window"
c1=$(cpu_ticks $serve_pid)
f1=$(metric carcassonne_messages_out_total)
wait $load_pid || true
overflows1=$(listen_overflows)
kill $serve_pid
wait $serve_pid 2>/dev/null || true
load=$(cat "$data/load.json")
p99=$(sed 's/.*"latency_ms":{[^}]*"p99":\([0-9.]*\).*/\1/' <<<"$load")
w99=$(sed 's/.*"latency_to_last_ms":{[^}]*"p99":\([0-9.]*\).*/\1/' <<<"$load")
[[ $n -gt 0 ]] || w99=0
awk -v f=$((f1 - f0)) -v c=$((c1 - c0)) -v t="$tick" -v w="$window" -v n="$n" -v p="$p99" \
  -v q="$w99" -v rss="$((rss1 - rss0))" 'BEGIN {
  cpu = c / t
  printf "serve spectators=%d frames/s=%.0f cpu_s=%.2f us_per_frame=%.2f", n, f / w, cpu,
    (f > 0 ? cpu * 1e6 / f : 0)
  printf " players_p99_ms=%s last_spectator_p99_ms=%s kb_per_spectator=%.1f\n", p, q,
    (n > 0 ? rss / n : 0) }'
if [[ $n -gt 0 ]]; then
  python3 -c 'import json, sys
a = json.loads(sys.argv[1])["spectators"]["admitted"]
c, u = a["connected_ms"], a["upgraded_ms"]
print("admit spectators=%d/%d failed=%d+%d p50_ms=%.0f p99_ms=%.0f max_ms=%.0f per_second=%.0f"
      " connected_p99/max_ms=%.0f/%.0f upgraded_p99/max_ms=%.0f/%.0f listen_overflows=%s" % (
      a["spectators"], a["of"], a["connect_failures"], a["handshake_failures"], a["p50_ms"],
      a["p99_ms"], a["max_ms"], a["per_second"], c["p99"], c["max"], u["p99"], u["max"],
      sys.argv[2]))' "$load" "$((overflows1 - overflows0))"
fi
echo "load  $load"
