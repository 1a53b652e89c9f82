#!/bin/bash
# The kernels that moved most in fence-abc (pdfs, uts) and the one that steals most (fj-rec), at 2
# workers, LOCUS_POP_FENCE=F for each form named, order rotated every round.
# Usage: steal-ab.sh BENCH OUT ROUNDS FORM... (summary: ../2026-11-27g/fence-ab.py OUT A B)
set -u
BENCH=$1 OUT=$2 ROUNDS=$3
shift 3
FORMS=("$@")
mkdir -p "$OUT"
n=${#FORMS[@]}
for r in $(seq 1 "$ROUNDS"); do
  uptime >> "$OUT/uptime.txt"
  for i in $(seq 0 $((n - 1))); do
    f=${FORMS[$(((i + r) % n))]}
    for k in pdfs uts fj-rec; do
      LOCUS_POP_FENCE=$f "$BENCH" $k --runtime locus --workers 2 --reps 3 --json "$OUT/$k-$f-$r.json" > /dev/null
    done
  done
done
