#!/bin/bash
# fib 35 at 1 worker, the hot-path driver of 2026-11-27b built against two trees (each with its
# build/release/liblocus.a), alternated round by round; prints "tree form seconds" lines and
# the per-form medians and ratios. Usage: ab.sh BASE_TREE NESTED_TREE ROUNDS FORM...
# (2026-11-29: ab.sh /work/wt/base /work/main 10 inplace future > times-run1.txt, then
#  12 rounds of inplace inline > times-run2.txt; NESTED_TREE had nested-form.patch applied.)
set -e
here=$(cd "$(dirname "$0")" && pwd)
drv="$here/../../2026-11-27b/hotpath-driver.cpp"
base=$1 nested=$2 rounds=$3; shift 3
out=$(mktemp -d)
for t in base nested; do
  tree=${!t}
  g++ -std=c++20 -O3 -DNDEBUG -I"$tree/include" -I"$tree/build/release/include" "$drv" \
    "$tree/build/release/liblocus.a" -lhwloc -lpthread -o "$out/$t"
done
for i in $(seq 1 "$rounds"); do
  for t in base nested; do
    for f in "$@"; do
      echo "$t $f $(LOCUS_WORKERS=1 "$out/$t" 35 1 "$f" | awk '{print $1}')"
    done
  done
done | tee "$out/times.txt"
python3 - "$out/times.txt" <<'PY'
import collections, statistics, sys
d = collections.defaultdict(list)
for line in open(sys.argv[1]):
    t, f, r = line.split()
    d[(t, f)].append(float(r))
for f in sorted({f for _, f in d}):
    b, m = d[("base", f)], d[("nested", f)]
    r = [y / x for x, y in zip(b, m)]
    print(f"{f}: base {statistics.median(b):.3f} [{min(b):.3f}-{max(b):.3f}] nested "
          f"{statistics.median(m):.3f} [{min(m):.3f}-{max(m):.3f}] ratio {statistics.median(r):.3f}, "
          f"nested faster in {sum(x < 1 for x in r)}/{len(r)}")
PY
rm -rf "$out"
