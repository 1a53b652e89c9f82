#!/bin/bash
# Issue 20, A/B of two locus-bench binaries: fib 35 and nqueens 12:nocutoff at 1 worker, each
# run with its own serial (locus-bench interleaves the runtimes rep by rep), the two binaries
# alternated round by round. Usage: hot-ab.sh BASE NEW OUT [ROUNDS=4] [CPU]; then
# hot-ab-summary.py OUT. CPU: taskset core for every run (default: none).
BASE=$1; NEW=$2; OUT=$3; ROUNDS=${4:-4}; CPU=$5
mkdir -p $OUT; uptime > $OUT/uptime-start.txt
pin() { if [ -n "$CPU" ]; then taskset -c $CPU "$@"; else "$@"; fi; }
for r in $(seq 1 $ROUNDS); do
  for v in base new; do
    bin=$BASE; [ $v = new ] && bin=$NEW
    pin $bin fib --size 35 --runtime serial,locus --workers 1 --reps 5 --json $OUT/fib-$v-$r.json > /dev/null
    pin $bin nqueens --size 12:nocutoff --runtime serial,locus --workers 1 --reps 5 --json $OUT/nq-$v-$r.json > /dev/null
  done
done
uptime > $OUT/uptime-end.txt
