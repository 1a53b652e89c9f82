#!/bin/bash
# Instructions per nqueens node (no cutoff): the serial recursion compiled as is and with
# -fno-ipa-cp-clone, and the locus kernel (2026-11-26b/nqueens-driver.cpp), each as
# (Ir(10) - Ir(9)) / 27,145 (the nodes of n = 10 less those of n = 9), callgrind, 1 worker.
# Usage: count.sh TREE (TREE/build/release/liblocus.a built)
T=$1; D=$(dirname "$0"); W=$(mktemp -d)
F="-std=c++20 -O3 -DNDEBUG -I$T/include -I$T/bench"
g++ $F "$D/serial-driver.cpp" -o "$W/serial"
g++ $F -fno-ipa-cp-clone "$D/serial-driver.cpp" -o "$W/serial-noclone"
g++ $F "$T/docs/benchmarks-data/2026-11-26b/nqueens-driver.cpp" "$T/build/release/liblocus.a" \
  -lhwloc -lpthread -o "$W/locus"
for b in serial serial-noclone locus; do
  i9=$(LOCUS_WORKERS=1 valgrind --tool=callgrind --callgrind-out-file=/dev/null "$W/$b" 9 2>&1 |
    awk '/refs/ {gsub(",", "", $NF); print $NF}')
  i10=$(LOCUS_WORKERS=1 valgrind --tool=callgrind --callgrind-out-file=/dev/null "$W/$b" 10 2>&1 |
    awk '/refs/ {gsub(",", "", $NF); print $NF}')
  echo "$b $i9 $i10 $(python3 -c "print(round(($i10 - $i9) / 27145, 2))")"
done
rm -rf "$W"
