#!/bin/bash
# locus-bench A/B after the worker loop's owner_sees_empty (2026-11-27c): fib 35 and nqueens
# 12:nocutoff, serial and locus at 1 and 2 workers, the two binaries alternated round by round.
# Usage: run.sh BASE NEW OUT [ROUNDS=4]; then summary.py OUT.
BASE=$1; NEW=$2; OUT=$3; ROUNDS=${4:-4}
mkdir -p "$OUT"; uptime > "$OUT/uptime-start.txt"
for r in $(seq 1 "$ROUNDS"); do
  for v in base new; do
    bin=$BASE; [ $v = new ] && bin=$NEW
    $bin fib --size 35 --runtime serial,locus --workers 1,2 --reps 5 --json "$OUT/fib-$v-$r.json" > /dev/null
    $bin nqueens --size 12:nocutoff --runtime serial,locus --workers 1,2 --reps 5 --json "$OUT/nq-$v-$r.json" > /dev/null
  done
done
uptime > "$OUT/uptime-end.txt"
