#!/bin/bash
# The 16-core device: Cholesky at 1 rank x 4 workers (the rank bound to 4 cores, as in
# 2026-11-26d), interleaved rounds of: base (main 305b116's locus-mpi-bench: unpinned workers,
# an export task per final tile), new --pin off (this branch: no export at one rank, still
# unpinned), new --pin auto (pinned: the rank's 4 cores are its own) with mpi-omp in the same
# process, and locus-bench's shared-memory locus and omp on the same 4 cores (taskset).
# Rounds until LIMIT seconds have passed (default 300). Every JSON of the new binary has
# kernel_s (the tile kernels' worker-seconds), worker_idle_s, cpu_s (the process's CPU).
# Usage: [S=NxB,...] devone.sh KIT.tar.gz BASE_BIN OUTDIR [LIMIT]
set -u
KD=$(mktemp -d); tar xf $1 -C $KD; . $(dirname $0)/../../2026-11-26d-device/kitenv.sh
B0=$2; B1=$K/bin/locus-mpi-bench; L=$K/bin/locus-bench; O=$3; LIMIT=${4:-300}; mkdir -p $O
t0=$(date +%s)
{ nproc; lscpu | grep -E 'Model name|Socket|NUMA|L3'; uptime; } > $O/machine.txt 2>&1
lg() { echo "## $(( $(date +%s) - t0 ))s $*" >> $O/log.txt; timeout 100 "$@" >> $O/log.txt 2>&1; echo "rc=$?" >> $O/log.txt; }
PE="--map-by slot:PE=4 --bind-to core"; S=${S:-4096x256,6144x256}
for r in 1 2 3 4 5; do
  [ $(( $(date +%s) - t0 )) -gt $LIMIT ] && break
  lg mpirun -np 1 $PE $B0 cholesky --chol-sizes $S --workers 4 --reps 5 --runtimes locus --json $O/base-r$r.json
  lg mpirun -np 1 $PE $B1 cholesky --chol-sizes $S --workers 4 --reps 5 --runtimes locus --pin off --json $O/nopin-r$r.json
  lg mpirun -np 1 $PE $B1 cholesky --chol-sizes $S --workers 4 --reps 5 --runtimes locus,mpi-omp --pin auto --json $O/pin-r$r.json
  lg taskset -c 0-3 $L cholesky --size $S --runtime locus,omp --workers 4 --reps 3 --json $O/shm-r$r.json
  echo "round $r $(uptime)" >> $O/log.txt
done
echo "done $(( $(date +%s) - t0 ))s" >> $O/log.txt
