#!/bin/bash
# The deques' two pop forms (docs/design/0021) in one locus-bench binary, LOCUS_POP_FENCE=full
# against LOCUS_POP_FENCE=asymmetric, alternated with the order swapped every round: fib 35
# and nqueens 12:nocutoff against serial at 1 and 2 workers (issue 20's targets), and the
# kernels with the most steals at 2 workers. Usage: fence-ab.sh BENCH OUT ROUNDS
set -u
BENCH=$1 OUT=$2 ROUNDS=$3
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
for r in $(seq 1 "$ROUNDS"); do
  uptime >> "$OUT/uptime.txt"
  if [ $((r % 2)) -eq 1 ]; then one full "$r"; one asymmetric "$r"
  else one asymmetric "$r"; one full "$r"; fi
done
