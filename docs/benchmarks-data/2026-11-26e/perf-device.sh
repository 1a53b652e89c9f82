#!/bin/bash
# Issue 20 on the 16-core device: cycles, not instructions (the developers' VM has no cycle
# counter). Carries build/perfkit2/perfkit.tgz (perf 6.1 and every library it and the binaries
# load, glibc excepted; locus-bench and the hot-path driver of main 305b116).
# Usage (device): bash docs/benchmarks-data/2026-11-26e/perf-device.sh   ; results in $OUT/all.tgz
set -x
KD=$(mktemp -d); tar xzf build/perfkit2/perfkit.tgz -C $KD
export LD_LIBRARY_PATH=$KD/perfkit/lib OPENBLAS_NUM_THREADS=1 LOCUS_WORKERS=1
P=$KD/perfkit/bin; R=$OUT/r; mkdir -p $R
(nproc; lscpu; cat /proc/sys/kernel/perf_event_paranoid; uptime) > $R/machine.txt 2>&1
EV=cycles,instructions,branches,branch-misses,L1-dcache-loads,L1-dcache-load-misses
$P/perf stat -e $EV -- true > $R/perf-probe.txt 2>&1
for rt in serial locus; do
  for k in "fib 35" "nqueens 12:nocutoff"; do
    set -- $k
    taskset -c ${CORE:-2} $P/perf stat -e $EV -o $R/stat-$1-$rt.txt -- $P/locus-bench $1 --size $2 --runtime $rt --workers 1 --reps 5 --json $R/$1-$rt.json > $R/$1-$rt.log 2>&1
  done
done
# the driver: fib in place at 1 worker, cycles per frame by difference of 34 and 29
for n in 29 34; do taskset -c ${CORE:-2} $P/perf stat -e $EV -o $R/stat-hpd-$n.txt -- $P/hpd $n 1 inplace > $R/hpd-$n.log 2>&1; done
taskset -c ${CORE:-2} $P/perf record -e cycles -o $R/fib.data -- $P/hpd 34 1 inplace > /dev/null 2>&1
$P/perf report -i $R/fib.data --stdio --no-children --percent-limit 0.5 > $R/fib-report.txt 2>&1
$P/perf annotate -i $R/fib.data --stdio -l > $R/fib-annotate.txt 2>&1
rm -f $R/fib.data
cd $OUT && tar czf all.tgz r && rm -rf r
