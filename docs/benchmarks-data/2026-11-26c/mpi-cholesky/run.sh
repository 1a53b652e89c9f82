#!/bin/bash
# Interleaved Cholesky 4096/256, 2 ranks x 1 worker, ROUNDS rounds (default 3) of: locus (the
# module's defaults), locus --spin-us 0 (no polling after activity), locus --max-sleep-us 2000
# (longer lazy sleeps while the worker computes), mpi-omp (bulk-synchronous), scalapack; 3
# factorisations each (median). Every JSON has per-rank worker idle time (locus) and rank 0's
# communication worker's CPU time, sleeps and polls.
# Usage: run.sh BIN OUTDIR [ROUNDS]
B=$1; O=$2; R=${3:-3}; mkdir -p $O
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
uptime > $O/uptime.txt
for r in $(seq 1 $R); do
  for v in locus locus-s0 locus-m2000 mpi-omp scalapack; do
    rt=$v; a=""
    case $v in
      locus-s0) rt=locus; a="--spin-us 0" ;;
      locus-m2000) rt=locus; a="--max-sleep-us 2000" ;;
    esac
    mpirun -np 2 $B cholesky --chol-sizes 4096x256 --reps 3 --runtimes $rt $a \
      --json $O/chol-$v-r$r.json > $O/chol-$v-r$r.txt 2>&1
    uptime >> $O/uptime.txt
  done
done
