#!/bin/sh
# Heat 2-D (2048 x 2048, 100 steps) at 2 ranks x 1 worker: each run times locus (overlapped
# halo exchange) and MPI + OpenMP (blocking exchange):  heat.sh BIN OUT ROUNDS
set -eu
BIN=$1 OUT=$2 ROUNDS=$3
mkdir -p "$OUT"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
r=1
while [ "$r" -le "$ROUNDS" ]; do
  uptime >> "$OUT/uptime.txt"
  mpirun -np 2 "$BIN" heat --reps 3 --json "$OUT/heat-$r.json" > /dev/null 2>&1 ||
    echo "heat round $r failed" >&2
  r=$((r + 1))
done
