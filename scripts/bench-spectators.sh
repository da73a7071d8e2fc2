#!/bin/bash
# One room's event streams on one instance against three (docs/scaling.md "Spectators on every
# instance"): a private Redis on port 56381 in /tmp; N streams (default 3000) join the room
# (tests/bench/spectators_join.py), then one chat line reaches them all. First one instance,
# then three, the room on the first and the streams spread over the three (the other two relay
# it). Prints the script's times and each instance's CPU (utime + stime from /proc) over the run.
cd "$(dirname "$0")/.."
N=${N:-3000}
D=/tmp/spectators-bench; rm -rf $D; mkdir -p $D
redis-server --port 56381 --bind 127.0.0.1 --save '' --appendonly no --dir $D --daemonize yes --logfile $D/redis.log
sleep 0.5
common="--redis redis://127.0.0.1:56381 --journal off --log-level warn --threads 1 --max-outbound 100000 --max-outbound-bytes 1000000000 --max-connections-per-address 100000 --max-connections 100000"
cpu() { awk '{print $14 + $15}' /proc/$1/stat; }
run() {  # instance count
  redis-cli -p 56381 flushall >/dev/null
  local pids=() ports=() before=()
  for ((n = 0; n < $1; n++)); do
    build/carcassonne serve --port $((18700 + n)) --instance-id s$n $common > $D/s$n.log 2>&1 & pids+=($!)
    ports+=($((18700 + n)))
  done
  sleep 1.5
  for p in "${pids[@]}"; do before+=($(cpu $p)); done
  echo "== $1 instance(s), $N streams"
  python3 tests/bench/spectators_join.py "$(IFS=,; echo "${ports[*]}")" $N
  local tck; tck=$(getconf CLK_TCK)
  for i in "${!pids[@]}"; do
    echo "instance s$i CPU: $(echo "scale=2; ($(cpu ${pids[$i]}) - ${before[$i]}) / $tck" | bc) s"
  done
  kill "${pids[@]}"; wait "${pids[@]}" 2>/dev/null
}
run 1
run 3
redis-cli -p 56381 shutdown nosave >/dev/null 2>&1
rm -rf $D
