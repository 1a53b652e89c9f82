#!/bin/sh
# fj-rec with locus at 1 and 2 workers, two locus-bench binaries alternated (order swapped
# every round):  fjrec.sh BASE NEW OUT ROUNDS   (then fjrec.py OUT)
set -eu
BASE=$1 NEW=$2 OUT=$3 ROUNDS=$4
mkdir -p "$OUT"
r=1
while [ "$r" -le "$ROUNDS" ]; do
  uptime >> "$OUT/uptime.txt"
  if [ $((r % 2)) -eq 1 ]; then order="base new"; else order="new base"; fi
  for b in $order; do
    bin=$BASE; [ "$b" = new ] && bin=$NEW
    "$bin" fj-rec --runtime locus --workers 1,2 --reps 5 --json "$OUT/$b-$r.json" > /dev/null
  done
  r=$((r + 1))
done
