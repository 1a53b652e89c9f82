#!/bin/sh
# Two locus-mpi-bench binaries alternating on the Cholesky 4096/256, 2 ranks x 1 worker: the
# default scheduler at 2x1 and the flow scheduler with priorities at 1x2, and the
# bulk-synchronous peer at 2x1 (from the second binary) once per round:
#   start-ab.sh OUT ROUNDS BASE NEW      (then chol-grid-summary.py OUT)
set -eu
OUT=$1 ROUNDS=$2 BASE=$3 NEW=$4
mkdir -p "$OUT"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
run() {  # name binary arguments...
  name=$1 bin=$2; shift 2
  mpirun -np 2 "$bin" cholesky --reps 3 --json "$OUT/$name-$r.json" "$@" > /dev/null 2>&1 ||
    echo "$name round $r failed" >&2
}
r=1
while [ "$r" -le "$ROUNDS" ]; do
  uptime >> "$OUT/uptime.txt"
  for b in base new; do
    bin=$BASE; [ "$b" = new ] && bin=$NEW
    run "$b-slaw-2x1" "$bin" --grid 2x1 --runtimes locus
    run "$b-flow-1x2" "$bin" --grid 1x2 --runtimes locus --scheduler flow
  done
  run "mpi-omp-2x1" "$NEW" --grid 2x1 --runtimes mpi-omp
  r=$((r + 1))
done
