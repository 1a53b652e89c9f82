#!/bin/bash
# Interleaved A/B on the shared 2-core VM: main 305b116's locus-mpi-bench (A) and this branch's
# (B, --pin off as A), Cholesky 2048x256 at 1 rank x 2 workers (unbound), ROUNDS rounds of 5
# factorisations each. Usage: ab-local.sh A_BIN B_BIN OUTDIR [ROUNDS]
A=$1; B=$2; O=$3; R=${4:-5}; mkdir -p $O
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
uptime > $O/uptime.txt
for r in $(seq 1 $R); do
  mpirun -np 1 --bind-to none $A cholesky --chol-sizes 2048x256 --workers 2 --reps 5 --runtimes locus --json $O/a-r$r.json > /dev/null
  mpirun -np 1 --bind-to none $B cholesky --chol-sizes 2048x256 --workers 2 --reps 5 --runtimes locus --pin off --json $O/b-r$r.json > /dev/null
  echo "r$r $(uptime)" >> $O/uptime.txt
done
