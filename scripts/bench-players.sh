#!/bin/bash
# The players' pages at scale (docs/hosting.md "Accounts"): `carcassonne bench-players` fills each
# store with 100,000 players and 1,000,000 finished rated games (generated inside the database),
# then times a leaderboard page (offset 0 and 50,000), a profile (ratings, history, a page of
# games), a page of all games by date, and the commit of a game's end. A private PostgreSQL (fsync
# on) on port 55433 in /tmp; the SQLite file in /tmp. As root (PostgreSQL runs as the postgres user
# through runuser). Arguments are passed on (--players N --games N --rounds K).
set -e
cd "$(dirname "$0")/.."
D=/tmp/players-bench-pg; S=/tmp/players-bench-sqlite
rm -rf $D $S; mkdir -p $D $S; chown postgres $D
runuser -u postgres -- /usr/lib/postgresql/15/bin/initdb -D $D/data -A trust -U carcassonne --no-sync -E UTF8 >/dev/null
runuser -u postgres -- /usr/lib/postgresql/15/bin/pg_ctl -D $D/data -w -l $D/log -o "-p 55433 -k $D -c listen_addresses=127.0.0.1" start >/dev/null
trap 'runuser -u postgres -- /usr/lib/postgresql/15/bin/pg_ctl -D $D/data -m fast stop >/dev/null; rm -rf $D $S' EXIT
build/carcassonne bench-players --store $S/carcassonne.db "$@"
echo "sqlite file: $(du -sh $S | cut -f1)"
build/carcassonne bench-players --store postgresql://carcassonne@127.0.0.1:55433/postgres "$@"
echo "postgresql database: $(runuser -u postgres -- psql -h $D -p 55433 -U carcassonne postgres -Atc "SELECT pg_size_pretty(pg_database_size('postgres'))")"
