#!/bin/bash
# docs/design/0022's nested spawn and call, as a measurement-only prototype (prototype.patch:
# work-first spawns in place and calls in place resume the child by a call and continue the
# parent in place; no steal handling, no stack-floor fallback, the future form unsupported: it
# is correct only at 1 worker under LOCUS_POLICY=work-first). Builds the hot-path driver against
# TREE's headers with and without the patch (both linked with TREE's gcc-built release library),
# counts instructions and callgrind's simulated indirect mispredictions per fib frame, then times
# fib 34 (inline form), ROUNDS rounds, the two binaries alternated.
# Usage: locus-prototype.sh TREE ROUNDS
T=$1 ROUNDS=$2 D=$(cd "$(dirname "$0")" && pwd) W=$(mktemp -d)
git -C "$T" worktree add -q "$W/tree" HEAD && git -C "$W/tree" apply "$D/prototype.patch" || exit 1
SRC="$D/../../2026-11-27b/hotpath-driver.cpp" LIB="$T/build/release/liblocus.a -lhwloc -lpthread"
g++ -std=c++20 -O3 -DNDEBUG -I"$T/include" -I"$T/build/release/include" "$SRC" $LIB -o "$W/base" &&
  g++ -std=c++20 -O3 -DNDEBUG -I"$W/tree/include" -I"$T/build/release/include" "$SRC" $LIB -o "$W/nested" || exit 1
export LOCUS_WORKERS=1 LOCUS_POLICY=work-first
"$W/nested" 35 1 inline > /dev/null || { echo "nested: fib(35) wrong"; exit 1; }
for b in base nested; do
  for form in inline inplace; do
    for k in 20 25; do
      valgrind --tool=callgrind --branch-sim=yes --callgrind-out-file="$W/cg.$k" "$W/$b" $k 1 $form > /dev/null 2>&1
      callgrind_annotate "$W/cg.$k" 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",", ""); print $1, $9}' > "$W/tot.$k"
    done
    read -r i20 m20 < "$W/tot.20"
    read -r i25 m25 < "$W/tot.25"
    python3 -c "f = 220894; print('instr $b $form', round(($i25 - $i20) / f, 2), round(($m25 - $m20) / f, 3))"
  done
done
for r in $(seq 1 "$ROUNDS"); do
  for b in base nested; do
    [ $((r % 2)) = 0 ] && b=$([ $b = base ] && echo nested || echo base)
    echo "time $r $b $("$W/$b" 34 1 inline | cut -d' ' -f1)"
  done
done
git -C "$T" worktree remove --force "$W/tree"
rm -rf "$W"
