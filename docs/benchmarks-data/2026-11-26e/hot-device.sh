#!/bin/bash
# Issue 20 on the 16-core device: the A/B of hot-ab.sh (main 305b116 against the branch with
# the one-handle in_place_spawn_op), the hot-path driver alternated, and a cpu-clock profile of
# the new driver. Carries build/hotab: lb-base, lb-new, hpd-base, hpd-new, perfkit.tgz (perf and
# every library the binaries load). Results: $OUT/all.tgz.
set -x
D=docs/benchmarks-data/2026-11-26e; KD=$(mktemp -d); tar xzf build/hotab/perfkit.tgz -C $KD
export LD_LIBRARY_PATH=$KD/perfkit/lib OPENBLAS_NUM_THREADS=1
P=$KD/perfkit/bin; H=$PWD/build/hotab; R=$OUT/r; mkdir -p $R
bash $D/hot-ab.sh $H/lb-base $H/lb-new $R/ab ${ROUNDS:-5} ${CPU:-3}
python3 $D/hot-ab-summary.py $R/ab > $R/ab-summary.txt 2>&1
for i in $(seq 1 15); do for v in base new; do
  echo "$v $(LOCUS_WORKERS=1 taskset -c ${CPU:-3} $H/hpd-$v 34 1 inplace)"; done; done > $R/hpd-times.txt
LOCUS_WORKERS=1 taskset -c ${CPU:-3} $P/perf record -e cpu-clock -o $R/new.data -- $H/hpd-new 34 1 inplace > /dev/null 2>&1
$P/perf annotate -i $R/new.data --stdio > $R/new-annotate.txt 2>&1
$P/perf report -i $R/new.data --stdio --no-children --percent-limit 0.5 > $R/new-report.txt 2>&1
rm -f $R/new.data
cd $OUT && tar czf all.tgz r && rm -rf r
