#!/bin/bash
# From the repository root. before: main's release locus-bench (/work/main/build/release at
# 69b7447) copied to /tmp/edt-before-bench; after: this branch's, copied to /tmp/edt-after-bench.
for r in 1 2 3 4 5; do
  for v in before after; do
    echo "$v $r $(date -u +%H:%M:%S) $(uptime | sed 's/.*load average: //')" >> docs/benchmarks-data/2026-11-24-runnable/load.txt
    /tmp/edt-$v-bench fib --size 30,30:edt --runtime locus --workers 1,2 --reps 5 --json docs/benchmarks-data/2026-11-24-runnable/$v-$r.json > docs/benchmarks-data/2026-11-24-runnable/$v-$r.txt 2>&1
  done
done
echo done >> docs/benchmarks-data/2026-11-24-runnable/load.txt
