#!/bin/bash
# The hot-path driver (../../2026-11-27b/hotpath-driver.cpp) built with gcc and with clang, both
# -O3 against the gcc-built release library of TREE: instructions per fib frame of each form
# (callgrind, (Ir(fib 25) - Ir(fib 20)) / 220,894 frames), then fib 34 (inline form) at 1 worker,
# ROUNDS rounds, the two binaries alternated (user CPU seconds of the whole process).
# Usage: clang-ab.sh TREE ROUNDS
T=$1 ROUNDS=$2 D=$(cd "$(dirname "$0")" && pwd) W=$(mktemp -d)
F="-std=c++20 -O3 -DNDEBUG -I$T/include -I$T/build/release/include"
SRC="$D/../../2026-11-27b/hotpath-driver.cpp" LIB="$T/build/release/liblocus.a -lhwloc -lpthread"
g++ $F "$SRC" $LIB -o "$W/gcc" && clang++ $F "$SRC" $LIB -o "$W/clang" || exit 1
for c in gcc clang; do
  for form in future inplace inline; do
    ir() { LOCUS_WORKERS=1 valgrind --tool=callgrind --callgrind-out-file=/dev/null "$W/$c" "$1" 1 $form 2>&1 |
           awk '/refs/ {gsub(",", "", $4); print $4}'; }
    a=$(ir 20); b=$(ir 25)
    echo "instr $c $form $a $b $(echo "scale=2; ($b - $a) / 220894" | bc)"
  done
done
for r in $(seq 1 "$ROUNDS"); do
  for c in gcc clang; do
    [ $((r % 2)) = 0 ] && c=$([ $c = gcc ] && echo clang || echo gcc)
    /usr/bin/time -f "time $r $c %U" env LOCUS_WORKERS=1 "$W/$c" 34 1 inline 2>&1 >/dev/null | tail -1
  done
done
rm -rf "$W"
