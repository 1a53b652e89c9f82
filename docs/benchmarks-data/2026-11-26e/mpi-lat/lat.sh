#!/bin/bash
# The latency of a remote dependence (locus-mpi-bench --lat), Cholesky 4096/256, ROUNDS rounds
# (default 2) of: 2 ranks x 1 worker with the defaults (one message per tile), the same with
# --busy-sleep-us 10000, the same with LOCUS_MPI_BENCH_ANY_SIZE=1 (tiles asked for without their
# size: a header then the bytes, main's protocol), and 4 ranks x 1 worker (--oversubscribe),
# also with LOCUS_MPI_BENCH_ANY_SIZE=1.
# 3 factorisations each; summarize-lat.py prints the distributions.
# Usage: lat.sh BIN OUTDIR [ROUNDS]
B=$1; O=$2; R=${3:-2}; mkdir -p $O
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
uptime > $O/uptime.txt
for r in $(seq 1 $R); do
  for v in ${VARIANTS:-np2 np2-b10000 np2-any np4 np4-any}; do
    np=2; a=""; env=""
    case $v in
      np2-b10000) a="--busy-sleep-us 10000" ;;
      np2-any) env="LOCUS_MPI_BENCH_ANY_SIZE=1" ;;
      np4) np=4 ;;
      np4-any) np=4; env="LOCUS_MPI_BENCH_ANY_SIZE=1" ;;
    esac
    env $env mpirun --oversubscribe -np $np $B cholesky --chol-sizes 4096x256 --reps 3 \
      --runtimes locus --lat $a --json $O/lat-$v-r$r.json > $O/lat-$v-r$r.txt 2>&1
    echo "$v r$r $(uptime)" >> $O/uptime.txt
  done
done
