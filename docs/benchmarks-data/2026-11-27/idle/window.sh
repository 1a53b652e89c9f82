#!/bin/bash
# idle_progress windows 0, 200, 2000 µs in this branch's binary, interleaved, ROUNDS rounds
# (default 2); --lat runs like lat-ab.sh. Usage: window.sh NEW_BIN OUTDIR [ROUNDS]
B=$1; O=$2; R=${3:-2}; mkdir -p $O
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
uptime > $O/uptime.txt
for r in $(seq 1 $R); do
  for w in 0 200 2000; do
    mpirun -np 2 $B cholesky --chol-sizes 4096x256 --reps 3 --runtimes locus --lat \
      --idle-progress-us $w --json $O/lat-w$w-r$r.json > $O/lat-w$w-r$r.txt 2>&1
    echo "w$w r$r $(uptime)" >> $O/uptime.txt
  done
done
