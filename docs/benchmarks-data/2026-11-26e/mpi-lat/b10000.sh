#!/bin/bash
# busy_sleep 10 ms against 2 ms, main's build against this branch's, interleaved: Cholesky
# 4096/256, 2 ranks x 1 worker, 3 factorisations per run, ROUNDS rounds (default 2).
# Usage: b10000.sh BASE_BIN NEW_BIN OUTDIR [ROUNDS]
B0=$1; B1=$2; O=$3; R=${4:-2}; mkdir -p $O
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
uptime > $O/uptime.txt
for r in $(seq 1 $R); do
  for v in base base-b10000 new new-b10000; do
    b=$B1; a=""
    case $v in base*) b=$B0 ;; esac
    case $v in *-b10000) a="--busy-sleep-us 10000" ;; esac
    mpirun -np 2 $b cholesky --chol-sizes 4096x256 --reps 3 --runtimes locus $a \
      --json $O/chol-$v-r$r.json > $O/chol-$v-r$r.txt 2>&1
    echo "$v r$r $(uptime)" >> $O/uptime.txt
  done
done
