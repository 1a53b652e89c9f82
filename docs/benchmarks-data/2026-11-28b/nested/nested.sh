#!/bin/bash
# Instructions and simulated branch mispredictions per frame of each form of nested-floor.cpp
# (callgrind --branch-sim=yes, (fib 25 - fib 20) / 220,894 frames), then ROUNDS timed runs of
# fib 32 in one process, the forms alternated. Usage: nested.sh ROUNDS
D=$(cd "$(dirname "$0")" && pwd) W=$(mktemp -d)
g++ -std=c++20 -O3 -DNDEBUG "$D/nested-floor.cpp" -o "$W/nf" || exit 1
for v in t n; do
  for k in 20 25; do
    valgrind --tool=callgrind --branch-sim=yes --callgrind-out-file="$W/cg.$v.$k" "$W/nf" $k 1 $v > /dev/null 2>&1
    callgrind_annotate "$W/cg.$v.$k" 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",", ""); print $1, $3, $5, $7, $9}' > "$W/tot.$v.$k"
  done
  read -r i20 bc20 bcm20 bi20 bim20 < "$W/tot.$v.20"
  read -r i25 bc25 bcm25 bi25 bim25 < "$W/tot.$v.25"
  python3 -c "f = 220894; print('$v', 'Ir/frame', round(($i25 - $i20) / f, 2), 'cond mispredicts/frame', round(($bcm25 - $bcm20) / f, 3), 'indirect branches/frame', round(($bi25 - $bi20) / f, 3), 'indirect mispredicts/frame', round(($bim25 - $bim20) / f, 3))"
done
"$W/nf" 32 "$1" both
rm -rf "$W"
