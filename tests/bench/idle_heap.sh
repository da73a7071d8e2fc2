#!/usr/bin/env bash
# The live heap of idle seated rooms (docs/performance.md "Memory"): `serve` under heaptrack,
# `loadtest --idle` seats and starts ROOMS rooms of 4 and plays nothing, the server is killed
# (SIGKILL) while they idle, and what it still had allocated is summed by where it was
# allocated, per room. Needs heaptrack (Debian package `heaptrack`).
#   tests/bench/idle_heap.sh BUILD_DIR [ROOMS]
#   SHOW_OTHER=N: also the N innermost frames that hold most of what no pattern names.
#   SETTLE=SECONDS: how long the rooms get to be seated and started before the kill (11).
#   SCRIPTED=1: serve with --allow-scripted true (loadtest then seeds its rooms); without it (the
#   default) the rooms are fair rooms, as in the server's shipped configuration.
# One-time costs (SQLite's bounded page cache, OpenSSL's tables, static data) are divided by
# ROOMS too: compare two room counts for the cost of one more room.
# BUILD_DIR must be configured with -DCARCASSONNE_JEMALLOC=OFF: jemalloc's operator new does not
# go through malloc, so heaptrack would miss every C++ allocation (the live heap is what the code
# asks for, the same with either allocator; the resident memory of each is in side_by_side.sh).
set -euo pipefail
build=$1
if ldd "$build/carcassonne" | grep -q jemalloc; then
  echo "$build/carcassonne links jemalloc, which heaptrack cannot follow: measure a build" \
    "configured with -DCARCASSONNE_JEMALLOC=OFF" >&2
  exit 2
fi
rooms=${2:-250}
settle=${SETTLE:-11}
scripted=()
if [[ ${SCRIPTED:-0} == 1 ]]; then scripted=(--allow-scripted true); fi
port=$((20000 + RANDOM % 20000))
data=$(mktemp -d)
trap 'rm -rf "$data"' EXIT
heaptrack -o "$data/heap" "$build/carcassonne" serve --port "$port" --threads 1 \
  --data-dir "$data/db" --log-level warn --message-rate 100000 --message-burst 100000 \
  --max-connections 100000 --max-connections-per-address 100000 "${scripted[@]}" \
  >/dev/null 2>&1 &
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.2; done
"$build/carcassonne" loadtest --port "$port" --rooms "$rooms" --clients-per-room 4 --idle \
  --duration $((settle + 3)) >"$data/load.json" &
load_pid=$!
sleep "$settle"  # every room seated and started (the load tool's warm-up), none closed yet
started=$(curl -s "http://127.0.0.1:$port/metrics" | awk '/^carcassonne_games_started_total /{print $2}')
connections=$(curl -s "http://127.0.0.1:$port/metrics" | awk '/^carcassonne_connections /{print $2}')
kill -9 "$(pgrep -f "^$build/carcassonne serve --port $port" | head -1)"
wait "$load_pid" || true
wait || true
heaptrack_print -f "$data"/heap*.zst -p 0 -a 0 -T 0 -l 0 --flamegraph-cost-type leaked \
  -F "$data/stacks" >/dev/null 2>&1
# Each line of $data/stacks: the call stack (outermost first, frames joined by ';'), a space,
# the bytes still allocated from it. Named by the innermost frame that matches a pattern.
awk -v show_other="${SHOW_OTHER:-0}" -v rooms="$rooms" -v started="$started" -v connections="$connections" '
  BEGIN {
    n = split("sqlite3|SQLite (bounded page cache)#" \
      "CRYPTO_|OpenSSL (one-time)#" \
      "update_timer|Asio: the WebSocket idle timer wait#" \
      "websocket::stream<>::read_some_op|Asio: the pending frame read#" \
      "websocket::stream<>::read_op|the pending message read (its buffer)#" \
      "basic_stream<>::impl_type|the HTTP stream (tcp_stream)#" \
      "make_shared<>(boost::beast::basic_stream<>&&|Beast WebSocket streams#" \
      "make_shared<>(boost::asio::basic_stream_socket<>&&|Beast WebSocket streams#" \
      "epoll_reactor|Asio: socket descriptors#" \
      "strand_executor_service::create_implementation|Asio: strands#" \
      "reactive_socket_recv_op|Asio: the pending frame read#" \
      "websocket_session::enqueue|sessions: outbound queues#" \
      "websocket_session::run|sessions: the live-session set#" \
      "start_websocket_session|sessions: objects#" \
      "websocket_session::on_accept|sessions: the live-session set#" \
      "public_doc|room: public view text#" \
      "private_doc|room: private views#" \
      "new_game|room: engine state#" \
      "room::start|room: seats, names, setup at the start#" \
      "room::broadcast|room: room part, frames held#" \
      "lobby::|room: object, timer, lobby entry#" \
      "room::join|room: joins#" \
      "address_limits|address limits", rules, "#")
    for (i = 1; i <= n; i++) { split(rules[i], kv, "|"); pat[i] = kv[1]; name[i] = kv[2] }
  }
  {
    bytes = $NF
    k = split(substr($0, 1, length($0) - length($NF) - 1), frame, ";")
    what = "other"
    for (f = k; f >= 1 && what == "other"; f--)
      for (i = 1; i <= n; i++)
        if (index(frame[f], pat[i])) { what = name[i]; break }
    sum[what] += bytes; total += bytes
    if (what == "other" && show_other) {  # the innermost three frames that have a name
      key = ""
      for (f = k; f >= 1 && split(key, parts, " <- ") <= 3; f--)
        if (frame[f] != "" && frame[f] !~ /^(operator new|malloc|\?\?)/) key = key (key == "" ? "" : " <- ") substr(frame[f], 1, 60)
      other[key] += bytes
    }
  }
  END {
    for (w in sum) printf "%8.2f KB  %s\n", sum[w] / rooms / 1024, w | "sort -rn"
    close("sort -rn")
    if (show_other) {
      for (f in other) printf "%8.2f KB  other: %s\n", other[f] / rooms / 1024, f | "sort -rn | head -" show_other
      close("sort -rn | head -" show_other)
    }
    printf "%8.2f KB  live heap per room (%d rooms; %s games started, %s connections)\n",
      total / rooms / 1024, rooms, started, connections
  }' "$data/stacks"
