#!/bin/sh
# Compares two builds' selfplay for every mix of the five expansions at 2 and 4 players: the same
# games must give the same checksum (a refactoring changes no result). Prints one line per mix
# that differs and exits 1 if any did.
# Usage: scripts/compare-selfplay.sh OLD_BINARY NEW_BINARY [GAMES]
set -eu
old=$1 new=$2 games=${3:-20}
names="hills_and_sheep gifts peasant_revolts easter festival"
differ=0 runs=0
for bits in $(seq 0 31); do
  mix="" i=0
  for n in $names; do
    [ $((bits >> i & 1)) -eq 1 ] && mix="${mix:+$mix,}$n"
    i=$((i + 1))
  done
  for players in 2 4; do
    set -- --games "$games" --players "$players" --seed 17
    [ -n "$mix" ] && set -- "$@" --expansions "$mix"
    a=$("$old" selfplay "$@" | grep -o '"checksum":[0-9]*')
    b=$("$new" selfplay "$@" | grep -o '"checksum":[0-9]*')
    runs=$((runs + 1))
    if [ "$a" != "$b" ]; then
      echo "differs: players=$players expansions=${mix:-none}: $a vs $b"
      differ=1
    fi
  done
done
echo "$runs runs compared"
exit $differ
