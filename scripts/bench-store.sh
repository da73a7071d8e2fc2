#!/bin/bash
# The PostgreSQL store against SQLite under the load tool (docs/scaling.md "Figures"): a private
# PostgreSQL (fsync on) on port 55432 in /tmp, the server on port 18500, one run at a time. As root
# (PostgreSQL runs as the postgres user through runuser).
cd "$(dirname "$0")/.."
D=/tmp/scale-bench-pg; rm -rf $D; mkdir -p $D; chown postgres $D
runuser -u postgres -- /usr/lib/postgresql/15/bin/initdb -D $D/data -A trust -U carcassonne --no-sync -E UTF8 >/dev/null
runuser -u postgres -- /usr/lib/postgresql/15/bin/pg_ctl -D $D/data -w -l $D/log -o "-p 55432 -k $D -c listen_addresses=127.0.0.1" start >/dev/null
for rooms in 100 1000; do
  for store in sqlite pg; do
    rm -rf /tmp/scale-bench-sqlite
    if [ $store = pg ]; then
      runuser -u postgres -- psql -h $D -p 55432 -U carcassonne postgres -qc "DROP TABLE IF EXISTS moves, rooms, carcassonne_schema" >/dev/null 2>&1
      args="--store postgresql://carcassonne@127.0.0.1:55432/postgres"
    else args="--data-dir /tmp/scale-bench-sqlite"; fi
    build/carcassonne serve --port 18500 $args --log-level warn --message-rate 100000 --message-burst 100000 --threads 2 &
    pid=$!; sleep 1
    echo "== $store rooms=$rooms"
    build/carcassonne loadtest --port 18500 --rooms $rooms --clients-per-room 2 --duration 10 --threads 1 2>&1 | tail -4
    kill $pid; wait $pid
  done
done
runuser -u postgres -- /usr/lib/postgresql/15/bin/pg_ctl -D $D/data -m fast stop >/dev/null
rm -rf $D /tmp/scale-bench-sqlite
