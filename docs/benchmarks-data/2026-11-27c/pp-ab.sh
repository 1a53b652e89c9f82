#!/bin/bash
# Interleaved ping-pong, 2 ranks x 1 worker: ROUNDS rounds, each running every binary given
# once (in the order given), each run timing raw MPI_Send/MPI_Recv and locus in one process
# (7 reps of ITERS round trips of BYTES; defaults 20000 and 8). Output:
# OUTDIR/<name>-r<round>.json, where name is the binary's file name.
# Usage: pp-ab.sh OUTDIR ROUNDS BIN...
O=$1; R=$2; shift 2; mkdir -p "$O"
BYTES=${BYTES:-8}; ITERS=${ITERS:-20000}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
uptime > "$O/uptime.txt"
for r in $(seq 1 "$R"); do
  for b in "$@"; do
    n=$(basename "$b")
    mpirun -np 2 "$b" pingpong --reps 7 --iters "$ITERS" --pp-bytes "$BYTES" --json "$O/$n-r$r.json" \
      > "$O/$n-r$r.txt" 2>&1
  done
  uptime >> "$O/uptime.txt"
done
