#!/bin/sh
# StarPU-MPI beside locus (flow + priorities, 1x2), Cholesky 4096/256, 2 ranks x 1 worker:
#   starpu-ab.sh BIN OUT ROUNDS   (then ../2026-11-27d/chol-grid-summary.py OUT)
set -eu
BIN=$1 OUT=$2 ROUNDS=$3
mkdir -p "$OUT"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
run() {
  name=$1; shift
  mpirun -np 2 "$BIN" cholesky --reps 3 --json "$OUT/$name-$r.json" "$@" > /dev/null 2>&1 ||
    echo "$name round $r failed" >&2
}
r=1
while [ "$r" -le "$ROUNDS" ]; do
  uptime >> "$OUT/uptime.txt"
  run locus-flow-1x2 --grid 1x2 --runtimes locus --scheduler flow
  run starpu-mpi-2x1 --grid 2x1 --runtimes starpu-mpi
  run starpu-mpi-1x2 --grid 1x2 --runtimes starpu-mpi
  r=$((r + 1))
done
