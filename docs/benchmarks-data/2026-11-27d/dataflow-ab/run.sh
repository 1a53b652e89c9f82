#!/bin/sh
# The dataflow kernels before and after this change, alternating (locus-bench of each build):
#   run.sh BASE NEW OUT ROUNDS
# fib 30:edt (a graph of ~60 ns tasks) at 1 and 2 workers, smith-waterman 30000x256 at 2 workers
# with the flow scheduler off and on (steal-one), and smith-waterman at 1 worker with serial.
set -eu
BASE=$1 NEW=$2 OUT=$3 ROUNDS=$4
mkdir -p "$OUT"
r=1
while [ "$r" -le "$ROUNDS" ]; do
  for b in base new; do
    bin=$BASE; [ "$b" = new ] && bin=$NEW
    "$bin" fib --size 30:edt --runtime locus --workers 1,2 --reps 3 --json "$OUT/fib-$b-$r.json" > /dev/null
    "$bin" smith-waterman --size 30000x256 --runtime locus --workers 2 --flow off,one --reps 3 \
      --json "$OUT/sw-$b-$r.json" > /dev/null
    "$bin" smith-waterman --size 30000x256 --runtime serial,locus --workers 1 --reps 3 \
      --json "$OUT/sws-$b-$r.json" > /dev/null
  done
  r=$((r + 1))
done
