#!/bin/bash
# The time from a SIGKILL to every room of the dead instance rebuilt on the others
# (docs/scaling.md "Figures"): three instances on a private PostgreSQL (port 55434) and Redis
# (port 56381) in /tmp, ROOMS games (default 100) played by the load tool on node0; node0 killed
# with SIGKILL after 5 s; then /metrics of node1 and node2 polled every 50 ms until they hold all
# of node0's rooms. TTL: LEASE_TTL_MS (default 3000). As root (PostgreSQL runs as postgres).
cd "$(dirname "$0")/.."
ROOMS=${ROOMS:-100}
TTL=${LEASE_TTL_MS:-3000}
D=/tmp/failover-bench; rm -rf $D; mkdir -p $D; chown postgres $D
PG=/usr/lib/postgresql/15/bin
runuser -u postgres -- $PG/initdb -D $D/data -A trust -U carcassonne --no-sync -E UTF8 >/dev/null
runuser -u postgres -- $PG/pg_ctl -D $D/data -w -l $D/pg.log -o "-p 55434 -k $D -c listen_addresses=127.0.0.1" start >/dev/null
redis-server --port 56381 --bind 127.0.0.1 --save '' --appendonly no --dir $D --daemonize yes --logfile $D/redis.log
sleep 1
common="--store postgresql://carcassonne@127.0.0.1:55434/postgres --redis redis://127.0.0.1:56381 --lease-ttl-ms $TTL --allow-scripted true --log-level info --message-rate 100000 --message-burst 100000 --threads 1"
pids=()
for n in 0 1 2; do
  build/carcassonne serve --port $((18620 + n)) --instance-id n$n $common > $D/n$n.log 2>&1 & pids+=($!)
done
sleep 1
rooms() { curl -s http://127.0.0.1:$1/metrics | awk '$1 == "carcassonne_rooms" { print $2 }'; }
build/carcassonne loadtest --port 18620 --rooms $ROOMS --clients-per-room 2 --duration 30 --threads 1 > $D/load.txt 2>&1 & load=$!
sleep 5
dead=$(rooms 18620); before=$(( $(rooms 18621) + $(rooms 18622) ))
kill -KILL "${pids[0]}"; t0=$(date +%s.%N)
while :; do
  now=$(( $(rooms 18621) + $(rooms 18622) ))
  [ "$now" -ge $((before + dead)) ] && break
  [ "$(echo "$(date +%s.%N) - $t0 > 60" | bc)" = 1 ] && { echo "gave up: $now of $((before + dead))"; break; }
  sleep 0.05
done
t1=$(date +%s.%N)
echo "node0 held $dead rooms; all rebuilt on node1+node2 $(echo "$t1 - $t0" | bc) s after its SIGKILL (lease TTL $TTL ms)"
grep -h "rooms of dead instances adopted" $D/n1.log $D/n2.log | sed 's/^/  /'
kill $load "${pids[1]}" "${pids[2]}" 2>/dev/null; wait 2>/dev/null
redis-cli -p 56381 shutdown nosave >/dev/null 2>&1
runuser -u postgres -- $PG/pg_ctl -D $D/data -m fast stop >/dev/null
rm -rf $D
