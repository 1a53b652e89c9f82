#!/bin/bash
# Kernels the hot-path change could touch beyond fib and nqueens (deque, counters, spawn choice):
# locus at 2 workers, default sizes, two locus-bench binaries alternated (base first).
# Usage: run.sh BASE NEW OUT ROUNDS
for r in $(seq 1 "$4"); do
  for v in base new; do
    bin=$1; [ $v = new ] && bin=$2
    for k in pdfs cilksort fj-rec uts heat; do
      "$bin" $k --runtime locus --workers 2 --reps 3 --json "$3/$k-$v-$r.json" > /dev/null
    done
  done
done
