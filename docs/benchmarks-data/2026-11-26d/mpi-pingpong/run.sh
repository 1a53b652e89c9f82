#!/bin/bash
# Interleaved ping-pong and heat 2-D, 2 ranks x 1 worker, ROUNDS rounds (default 3) of: base
# (main's locus-mpi-bench), new (this branch: workers progress between graph tasks and when idle),
# new --no-worker-progress. Ping-pong times raw MPI_Send/MPI_Recv and locus in the same process
# (5 reps of 2000 round trips, 8 B and 1 MiB); heat 2-D 2048x2048, 100 steps, 3 reps (locus and
# mpi-omp). Usage: run.sh BASE_BIN NEW_BIN OUTDIR [ROUNDS]; summarized by summarize.py OUTDIR.
B0=$1; B1=$2; O=$3; R=${4:-3}; mkdir -p $O
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
uptime > $O/uptime.txt
for r in $(seq 1 $R); do
  for v in base new new-nwp; do b=$B1; a=""
    [ $v = base ] && b=$B0
    [ $v = new-nwp ] && a="--no-worker-progress"
    mpirun -np 2 $b pingpong --reps 5 --iters 2000 $a --json $O/pp-$v-r$r.json > $O/pp-$v-r$r.txt 2>&1
    mpirun -np 2 $b heat --reps 3 $a --json $O/heat-$v-r$r.json > $O/heat-$v-r$r.txt 2>&1
    echo "$v r$r $(uptime)" >> $O/uptime.txt
  done
done
