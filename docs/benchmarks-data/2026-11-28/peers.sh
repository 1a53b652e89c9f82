#!/bin/bash
# Issue 20's targets against the peers in one run: fib 35 and nqueens 12:nocutoff, serial, locus
# (its default pop: adaptive), oneTBB and OpenMP at 1 and 2 workers, ROUNDS rounds of 5 reps.
# Usage: peers.sh BENCH OUT ROUNDS (summary: peers.py OUT)
set -u
BENCH=$1 OUT=$2 ROUNDS=$3
mkdir -p "$OUT"
for r in $(seq 1 "$ROUNDS"); do
  uptime >> "$OUT/uptime.txt"
  "$BENCH" fib --size 35 --runtime serial,locus,tbb,omp --workers 1,2 --reps 5 --json "$OUT/fib-$r.json" > /dev/null
  "$BENCH" nqueens --size 12:nocutoff --runtime serial,locus,tbb,omp --workers 1,2 --reps 5 --json "$OUT/nqueens-$r.json" > /dev/null
done
