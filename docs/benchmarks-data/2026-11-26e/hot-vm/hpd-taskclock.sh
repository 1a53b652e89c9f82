#!/bin/bash
# The hot-path driver (docs/benchmarks-data/2026-11-26/hotpath-driver.cpp) built against main
# 305b116 (hpd-base) and the branch (hpd-new), both g++ -std=c++20 -O3 -DNDEBUG -Iinclude
# DRIVER build/release/liblocus.a -lhwloc -lpthread; fib 34 in place at 1 worker, task-clock
# (ms of CPU time of the whole process), the two alternated 20 times.
tc() { perf stat -x, -e task-clock "$@" 2>&1 >/dev/null | awk -F, '/task-clock/{printf "%.1f", $1}'; }
export LOCUS_WORKERS=1
for i in $(seq 1 20); do echo "base $(tc ./hpd-base 34 1 inplace) new $(tc ./hpd-new 34 1 inplace)"; done
