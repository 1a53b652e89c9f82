#!/bin/bash
# interleaved task-clock (ms) of: serial fib 35, main fib 35 in place, head fib 35 in place,
# serial nqueens 12, main nqueens 12:nocutoff, head nqueens 12:nocutoff; 1 worker, unpinned
cd /tmp/hot/t
tc() { perf stat -x, -e task-clock "$@" 2>&1 >/dev/null | awk -F, '/task-clock/{printf "%.1f", $1}'; }
export LOCUS_WORKERS=1 LOCUS_PIN=0
for r in $(seq 1 ${ROUNDS:-7}); do
  echo "round $r serial_fib $(tc ./serial_fib 35) main_fib $(tc ./drv_main 35 0 inplace) head_fib $(tc ./drv_head 35 0 inplace) serial_nq $(tc ./serial_nq 12) main_nq $(tc ./nq_main 12) head_nq $(tc ./nq_head 12)"
done
