#!/bin/bash
# The deques' pop forms (docs/design/0021) in one locus-bench binary: LOCUS_POP_FENCE=F for each
# form F named, the order rotated every round: fib 35 and nqueens 12:nocutoff against serial at
# 1 and 2 workers (issue 20's targets), and the kernels with the most steals at 2 workers.
# Usage: fence-abc.sh BENCH OUT ROUNDS FORM... (summary: ../2026-11-27g/fence-ab.py OUT A B)
set -u
BENCH=$1 OUT=$2 ROUNDS=$3
shift 3
FORMS=("$@")
mkdir -p "$OUT"
one() { # form round
  local env=(env LOCUS_POP_FENCE="$1")
  "${env[@]}" "$BENCH" fib --size 35 --runtime serial,locus --workers 1,2 --reps 5 \
    --json "$OUT/fib-$1-$2.json" > /dev/null
  "${env[@]}" "$BENCH" nqueens --size 12:nocutoff --runtime serial,locus --workers 1,2 --reps 5 \
    --json "$OUT/nqueens-$1-$2.json" > /dev/null
  for k in pdfs cilksort fj-rec uts heat; do
    "${env[@]}" "$BENCH" $k --runtime locus --workers 2 --reps 3 --json "$OUT/$k-$1-$2.json" > /dev/null
  done
}
n=${#FORMS[@]}
for r in $(seq 1 "$ROUNDS"); do
  uptime >> "$OUT/uptime.txt"
  for i in $(seq 0 $((n - 1))); do
    one "${FORMS[$(((i + r) % n))]}" "$r"
  done
done
