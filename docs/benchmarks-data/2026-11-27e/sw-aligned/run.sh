#!/bin/sh
# smith-waterman with its two translation units (locus.cpp, serial.cpp) built with
# -falign-loops=64 -falign-functions=64 in both builds (the rest as in the release preset), so
# that its hot loops sit at the same offset in a 64-byte block in both binaries:
#   run.sh BASE NEW OUT ROUNDS   (BASE, NEW: locus-bench binaries relinked so)
set -eu
BASE=$1 NEW=$2 OUT=$3 ROUNDS=$4
mkdir -p "$OUT"
r=1
while [ "$r" -le "$ROUNDS" ]; do
  for b in base new; do
    bin=$BASE; [ "$b" = new ] && bin=$NEW
    "$bin" smith-waterman --size 30000x256 --runtime locus --workers 2 --flow off,one --reps 3 \
      --json "$OUT/sw-$b-$r.json" > /dev/null
    "$bin" smith-waterman --size 30000x256 --runtime serial,locus --workers 1 --reps 3 \
      --json "$OUT/sws-$b-$r.json" > /dev/null
  done
  r=$((r + 1))
done
