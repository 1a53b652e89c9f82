#!/bin/sh
# The find_work change (a look that finds work at once is not an idle spell) against the build
# before it, alternating (locus-bench of each): fib and nqueens at 1 and 2 workers (steals),
# smith-waterman at 2 workers with the flow scheduler (every task from a ready queue).
#   run.sh BASE NEW OUT ROUNDS   (then ../summary.py OUT)
set -eu
BASE=$1 NEW=$2 OUT=$3 ROUNDS=$4
mkdir -p "$OUT"
r=1
while [ "$r" -le "$ROUNDS" ]; do
  for b in base new; do
    bin=$BASE; [ "$b" = new ] && bin=$NEW
    "$bin" fib --size 35 --runtime locus --workers 1,2 --reps 5 --json "$OUT/fib-$b-$r.json" > /dev/null
    "$bin" nqueens --size 12:nocutoff --runtime locus --workers 1,2 --reps 5 \
      --json "$OUT/nq-$b-$r.json" > /dev/null
    "$bin" smith-waterman --size 30000x256 --runtime locus --workers 2 --flow one --reps 3 \
      --json "$OUT/sw-$b-$r.json" > /dev/null
  done
  r=$((r + 1))
done
