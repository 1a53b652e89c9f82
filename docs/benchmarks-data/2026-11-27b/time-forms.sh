#!/bin/bash
# CPU time (perf stat task-clock, ms) of fib N at 1 worker in hotpath-driver.cpp, in place, declared
# and not declared inline, against two source trees, interleaved round by round (base first).
# Usage: time-forms.sh BASE_TREE NEW_TREE OUT [ROUNDS=10] [N=34]
here=$(cd "$(dirname "$0")" && pwd)
BASE=$1; NEW=$2; OUT=$3; ROUNDS=${4:-10}; N=${5:-34}
mkdir -p "$OUT"; uptime > "$OUT/uptime-start.txt"
for v in base new; do
  tree=$BASE; [ $v = new ] && tree=$NEW
  g++ -std=c++20 -O3 -DNDEBUG -I"$tree/include" -I"$tree/build/release/include" \
    "$here/hotpath-driver.cpp" "$tree/build/release/liblocus.a" -lhwloc -lpthread -o "$OUT/drv-$v" || exit 1
done
for r in $(seq 1 "$ROUNDS"); do
  for v in base new; do
    for form in inplace inline; do
      t=$(LOCUS_WORKERS=1 perf stat -x, -e task-clock "$OUT/drv-$v" "$N" 1 $form 2>&1 >/dev/null |
          awk -F, '/task-clock/ {print $1}')
      echo "$r $v $form $t" | tee -a "$OUT/times.txt"
    done
  done
done
uptime > "$OUT/uptime-end.txt"
rm -f "$OUT/drv-base" "$OUT/drv-new"
