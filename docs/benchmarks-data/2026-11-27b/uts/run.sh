#!/bin/bash
# uts T3L at 2 workers, locus-uts of two builds alternated (base first): peak RSS and wall time.
# Usage: run.sh BASE_UTS NEW_UTS ROUNDS > times.txt
for r in $(seq 1 "$3"); do
  for v in base new; do
    bin=$1; [ $v = new ] && bin=$2
    /usr/bin/time -f "$r $v %M KiB %e s" "$bin" T3L 2 2>&1 >/dev/null | tail -1
  done
done
