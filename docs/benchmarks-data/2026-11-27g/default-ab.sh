#!/bin/bash
# The default path (LOCUS_POP_FENCE unset: full) of two locus-bench binaries, BASE (main
# e89e847) against NEW (this change), alternated with the order swapped every round: the same
# kernels as fence-ab.sh. Usage: default-ab.sh BASE NEW OUT ROUNDS; then fence-ab.py OUT base new
set -u
BASE=$1 NEW=$2 OUT=$3 ROUNDS=$4
mkdir -p "$OUT"
one() { # label binary round
  "$2" fib --size 35 --runtime serial,locus --workers 1,2 --reps 5 --json "$OUT/fib-$1-$3.json" > /dev/null
  "$2" nqueens --size 12:nocutoff --runtime serial,locus --workers 1,2 --reps 5 \
    --json "$OUT/nqueens-$1-$3.json" > /dev/null
  for k in pdfs cilksort fj-rec uts heat; do
    "$2" $k --runtime locus --workers 2 --reps 3 --json "$OUT/$k-$1-$3.json" > /dev/null
  done
}
for r in $(seq 1 "$ROUNDS"); do
  uptime >> "$OUT/uptime.txt"
  if [ $((r % 2)) -eq 1 ]; then one base "$BASE" "$r"; one new "$NEW" "$r"
  else one new "$NEW" "$r"; one base "$BASE" "$r"; fi
done
