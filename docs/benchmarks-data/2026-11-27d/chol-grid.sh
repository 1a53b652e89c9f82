#!/bin/sh
# Cholesky 4096/256 at 2 ranks x 1 worker, the two grids and locus's schedulers, interleaved:
#   chol-grid.sh BIN OUT ROUNDS
# Each round runs every variant once (3 factorisations each, --json OUT/<variant>-<round>.json);
# summarise with chol-grid-summary.py OUT.
set -eu
BIN=$1 OUT=$2 ROUNDS=$3
mkdir -p "$OUT"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
run() {  # name, then locus-mpi-bench arguments
  name=$1; shift
  mpirun -np 2 "$BIN" cholesky --reps 3 --json "$OUT/$name-$r.json" "$@" > /dev/null 2>&1 ||
    echo "$name round $r failed" >&2
}
r=1
while [ "$r" -le "$ROUNDS" ]; do
  uptime >> "$OUT/uptime.txt"
  for g in 2x1 1x2; do
    run "locus-slaw-$g" --grid "$g" --runtimes locus
    run "locus-flow-$g" --grid "$g" --runtimes locus --scheduler flow
    [ "$g" = 1x2 ] && run "locus-flow-noprio-$g" --grid "$g" --runtimes locus --scheduler flow --no-priorities
    run "mpi-omp-$g" --grid "$g" --runtimes mpi-omp
    run "scalapack-$g" --grid "$g" --runtimes scalapack
  done
  r=$((r + 1))
done
