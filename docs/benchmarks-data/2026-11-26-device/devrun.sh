#!/bin/bash
# Runs on the device: machine facts, scaling 1..16 workers, locality schedulers for real.
K=$(cd "$(dirname "$0")" && pwd); export LD_LIBRARY_PATH=$K/lib; B=$K/locus-bench
cd $K; t0=$(date +%s)
{ nproc; lscpu; ls /sys/devices/system/node; cat /sys/devices/system/node/node*/cpulist 2>/dev/null; $K/lstopo-no-graphics --of console 2>&1; } > $OUT/machine.txt 2>&1
lg() { echo "## $(( $(date +%s) - t0 ))s $*" >> $OUT/log.txt; "$@" >> $OUT/log.txt 2>&1; }
lg $B fib --size 35 --runtime serial,locus,tbb --workers 1,2,4,8,16 --reps 5 --json $OUT/fib.json
lg $B nqueens --size 12:nocutoff --runtime serial,locus,tbb,omp --workers 1,2,4,8,16 --reps 5 --json $OUT/nq.json
lg $B fib --size 35 --runtime omp --workers 1,2,16 --reps 3 --timeout 30 --json $OUT/fib-omp.json
lg /usr/bin/time -f "%M KiB peak RSS, %e s" $K/locus-uts T3L 2
for s in cilk slaw laws cab; do
  lg $B heat,sor,cilksort --size default --runtime locus --scheduler $s --workers 16 --reps 5 --json $OUT/loc-$s.json
done
lg $B heat,sor,cilksort --size default --runtime serial,tbb,omp --workers 16 --reps 5 --json $OUT/loc-peers.json
lg $B heat --size default --runtime locus --scheduler laws --workers 1,2,4,8,16 --reps 3 --json $OUT/heat-scale.json
echo "done $(( $(date +%s) - t0 ))s" >> $OUT/log.txt
