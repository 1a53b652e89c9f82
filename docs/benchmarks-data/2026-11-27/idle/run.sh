#!/bin/bash
# 2026-11-26d's run.sh with one variant more: locus-idle (this branch, --idle-progress-us 2000:
# idle workers keep stepping while an import is pending; the branch's default is 0).
# Interleaved Cholesky 4096/256, 2 ranks x 1 worker, ROUNDS rounds (default 3) of: base (main's
# locus-mpi-bench, the module's defaults then), locus (this branch's defaults: workers progress
# between graph tasks and when idle, busy_sleep 2 ms), locus --busy-sleep-us 500 (worker steps,
# the communication worker's steps as before), locus --busy-sleep-us 10000, locus
# --no-worker-progress (the communication worker alone, as main), mpi-omp (bulk-synchronous),
# scalapack; 3 factorisations each (median). This branch's JSONs have every rank's communication
# worker CPU and the workers' progress steps per factorisation.
# Usage: run.sh BASE_BIN NEW_BIN OUTDIR [ROUNDS]
B0=$1; B1=$2; O=$3; R=${4:-3}; mkdir -p $O
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
uptime > $O/uptime.txt
for r in $(seq 1 $R); do
  for v in ${VARIANTS:-base locus locus-b500 locus-b10000 locus-nwp mpi-omp scalapack}; do
    b=$B1; rt=$v; a=""
    case $v in
      base) b=$B0; rt=locus ;;
      locus-b500) rt=locus; a="--busy-sleep-us 500" ;;
      locus-b10000) rt=locus; a="--busy-sleep-us 10000" ;;
      locus-nwp) rt=locus; a="--no-worker-progress" ;;
      locus-idle) rt=locus; a="--idle-progress-us 2000" ;;
    esac
    mpirun -np 2 $b cholesky --chol-sizes 4096x256 --reps 3 --runtimes $rt $a \
      --json $O/chol-$v-r$r.json > $O/chol-$v-r$r.txt 2>&1
    echo "$v r$r $(uptime)" >> $O/uptime.txt
  done
done
