#!/bin/bash
# Instructions per fib frame at 1 worker (callgrind, (Ir(fib 25) - Ir(fib 20)) / 220,894 frames),
# for each form of hotpath-driver.cpp, against each source tree given (its include/ and its
# build/release/liblocus.a). Usage: callgrind-forms.sh TREE... (e.g. /work/wt/base /work/main)
here=$(cd "$(dirname "$0")" && pwd)
for tree in "$@"; do
  bin=$(mktemp /tmp/hotpath-XXXX)
  g++ -std=c++20 -O3 -DNDEBUG -I"$tree/include" -I"$tree/build/release/include" \
    "$here/hotpath-driver.cpp" "$tree/build/release/liblocus.a" -lhwloc -lpthread -o "$bin" || exit 1
  for form in future inplace inline; do
    ir() { LOCUS_WORKERS=1 valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" "$1" 1 $form 2>&1 |
           awk '/refs/ {gsub(",", "", $4); print $4}'; }
    a=$(ir 20); b=$(ir 25)
    echo "$tree $(git -C "$tree" rev-parse --short HEAD) $form $a $b $(echo "scale=2; ($b - $a) / 220894" | bc)"
  done
  rm -f "$bin"
done
