#!/bin/bash
# The latency of a remote dependence (locus-mpi-bench --lat), Cholesky 4096/256, 2 ranks x 1
# worker, 3 factorisations per run, interleaved, ROUNDS rounds (default 3) of: base (main's
# binary), new (this branch: idle workers step while an import is pending, --idle-progress-us
# 2000, which was the branch's default when lat-v1/, lat-v2/ and lat/ were taken),
# new-i0 (this branch with --idle-progress-us 0: one step when the deque runs empty, as main,
# with the new counters), and base / new with --busy-sleep-us 10000 (the loaded case of
# 2026-11-26e whose posted -> received p90 was 8-9 ms). Files lat-VARIANT-rN.json, so that
# 2026-11-26e's summarize-lat.py reads the directory; summarize-idle.py adds the counters.
# Usage: lat-ab.sh BASE_BIN NEW_BIN OUTDIR [ROUNDS]
B0=$1; B1=$2; O=$3; R=${4:-3}; mkdir -p $O
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
uptime > $O/uptime.txt
for r in $(seq 1 $R); do
  for v in ${VARIANTS:-base new new-i0 base-b10000 new-b10000}; do
    b=$B1; a="--idle-progress-us 2000"
    case $v in
      base) b=$B0; a="" ;;
      new-i0) a="--idle-progress-us 0" ;;
      base-b10000) b=$B0; a="--busy-sleep-us 10000" ;;
      new-b10000) a="--idle-progress-us 2000 --busy-sleep-us 10000" ;;
    esac
    mpirun -np 2 $b cholesky --chol-sizes 4096x256 --reps 3 --runtimes locus --lat $a \
      --json $O/lat-$v-r$r.json > $O/lat-$v-r$r.txt 2>&1
    echo "$v r$r $(uptime)" >> $O/uptime.txt
  done
done
