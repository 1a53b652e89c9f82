#!/bin/bash
# quiet-window MPI runs: interleaved ping-pong (poll / nopoll / funneled) and Cholesky 4096/256 over every runtime
B=/work/wt/trial/build/release/bin/locus-mpi-bench; O=/work/wt/trial/docs/benchmarks-data/2026-11-26-mpi/quiet; mkdir -p $O
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
uptime > $O/uptime.txt
for r in 1 2 3; do
  for f in poll nopoll; do a=""; [ $f = nopoll ] && a="--worker-poll-us 0"
    mpirun -np 2 $B pingpong --reps 5 --iters 2000 $a --json $O/pingpong-$f-r$r.json > $O/pingpong-$f-r$r.txt 2>&1; done
  for rt in locus mpi-omp scalapack; do
    mpirun -np 2 $B cholesky --chol-sizes 4096x256 --reps 3 --runtimes $rt --json $O/chol-$rt-r$r.json > $O/chol-$rt-r$r.txt 2>&1; done
done
uptime >> $O/uptime.txt
