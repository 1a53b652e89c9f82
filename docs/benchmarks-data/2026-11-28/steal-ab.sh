#!/bin/bash
# The kernels KERNELS (default: pdfs uts fj-rec, which moved most in the first fence-abc run, and fj-rec steals most), at 2
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
    for k in ${KERNELS:-pdfs uts fj-rec}; do
      LOCUS_POP_FENCE=$f "$BENCH" $k --runtime locus --workers 2 --reps 3 --json "$OUT/$k-$f-$r.json" > /dev/null
    done
  done
done
