#!/bin/bash
# One instance against three on one PostgreSQL and one Redis, under the load tool
# (docs/scaling.md "Figures"): a private PostgreSQL (fsync on) on port 55433 and a private Redis
# on port 56380 in /tmp; ROOMS rooms in all (default 300), 2 clients each, 10 s. One instance
# (--threads 2) with one load tool, then three instances (--threads 1 each) with one load tool
# each on a third of the rooms. As root (PostgreSQL runs as the postgres user through runuser).
cd "$(dirname "$0")/.."
ROOMS=${ROOMS:-300}
D=/tmp/cluster-bench; rm -rf $D; mkdir -p $D; chown postgres $D
PG=/usr/lib/postgresql/15/bin
runuser -u postgres -- $PG/initdb -D $D/data -A trust -U carcassonne --no-sync -E UTF8 >/dev/null
runuser -u postgres -- $PG/pg_ctl -D $D/data -w -l $D/pg.log -o "-p 55433 -k $D -c listen_addresses=127.0.0.1" start >/dev/null
redis-server --port 56380 --bind 127.0.0.1 --save '' --appendonly no --dir $D --daemonize yes --logfile $D/redis.log
sleep 1
STORE=postgresql://carcassonne@127.0.0.1:55433/postgres
common="--store $STORE --redis redis://127.0.0.1:56380 --allow-scripted true --log-level warn --message-rate 100000 --message-burst 100000"
reset() { runuser -u postgres -- psql -h $D -p 55433 -U carcassonne postgres -qc "DROP TABLE IF EXISTS moves, rooms, room_owner, carcassonne_schema" >/dev/null 2>&1; redis-cli -p 56380 flushall >/dev/null; }

reset
echo "== one instance, $ROOMS rooms"
build/carcassonne serve --port 18600 --instance-id n0 --threads 2 $common & p0=$!; sleep 1
build/carcassonne loadtest --port 18600 --rooms $ROOMS --clients-per-room 2 --duration 10 --threads 1 2>&1 | tail -4
kill $p0; wait $p0

reset
echo "== three instances, $((ROOMS / 3)) rooms each"
pids=()
for n in 0 1 2; do
  build/carcassonne serve --port $((18600 + n)) --instance-id n$n --threads 1 $common & pids+=($!)
done
sleep 1
loads=()
for n in 0 1 2; do
  build/carcassonne loadtest --port $((18600 + n)) --rooms $((ROOMS / 3)) --clients-per-room 2 --duration 10 --threads 1 > $D/load$n.txt 2>&1 &
  loads+=($!)
done
wait "${loads[@]}"
for n in 0 1 2; do echo "-- instance n$n"; tail -4 $D/load$n.txt; done
kill "${pids[@]}"; wait "${pids[@]}"

redis-cli -p 56380 shutdown nosave >/dev/null 2>&1
runuser -u postgres -- $PG/pg_ctl -D $D/data -m fast stop >/dev/null
rm -rf $D
