#!/bin/bash
# Interleaved ping-pong, 2 ranks x 1 worker, ROUNDS rounds (default 5) of: bench-base (built from
# 5d6f28b, main's MPI module), bench-new (this branch), and bench-new with
# --worker-poll-per-mib-us 0 ("new-pm0": one 100 µs window for every size, as main). Each run
# times raw MPI_Send/MPI_Recv and locus in the same process (5 reps of 2000 round trips, 8 B and
# 1 MiB). Then (CHOL=1) Cholesky 4096/256 with locus and mpi-omp (bench-new), interleaved.
# Usage: run.sh BASE_BIN NEW_BIN OUTDIR [ROUNDS]
B0=$1; B1=$2; O=$3; R=${4:-5}; mkdir -p $O
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
uptime > $O/uptime.txt
for r in $(seq 1 $R); do
  for v in base new new-pm0; do b=$B1; a=""
    [ $v = base ] && b=$B0
    [ $v = new-pm0 ] && a="--worker-poll-per-mib-us 0"
    mpirun -np 2 $b pingpong --reps 5 --iters 2000 $a --json $O/pp-$v-r$r.json > $O/pp-$v-r$r.txt 2>&1
    uptime >> $O/uptime.txt
  done
  if [ "$CHOL" = 1 ]; then
    for rt in locus mpi-omp; do
      mpirun -np 2 $B1 cholesky --chol-sizes 4096x256 --reps 3 --runtimes $rt --json $O/chol-$rt-r$r.json > $O/chol-$rt-r$r.txt 2>&1
      uptime >> $O/uptime.txt
    done
  fi
done
