#!/bin/sh
# The runs of docs/benchmarks-replay.md (issue 8 figures), from the repository root, after
# `cmake --build --preset release --target locus-bench` and building fig2-driver.cpp and
# ../2026-11-23c/relws-memory.cpp (see their heads) into /tmp/wtr/. Each writes its raw output here.
set -eu
D=docs/benchmarks-data/2026-11-24-replay
B=build/release/bin/locus-bench
step() { echo "== $* ($(date -u +%H:%M:%S), load $(cut -d' ' -f1-3 /proc/loadavg))" | tee -a $D/run.log; }
case "${1:-all}" in
fig2)
  step fig2a w2; /tmp/wtr/fig2 a 30 35 2 5 > $D/fig2a-w2.jsonl
  step fig2b; /tmp/wtr/fig2 b 29 2 5 4 > $D/fig2b-w2.jsonl
  step fig2c; /tmp/wtr/fig2 c 32 2 5 1 300 > $D/fig2c-w2.jsonl
  step memory; for w in 2 4; do /tmp/wtr/relws-memory 30 $w 5; done > $D/relws-memory-fib30.jsonl
  ;;
fig3)
  # Tracing's cost per kernel: random against traced (the same cilk scheduler, recording on),
  # 2 workers, 5 interleaved repetitions.
  for ks in memcpy:256MiBx4 heat:2048x1024x50 fdtd:500x600x100 floyd:512 cg:W scan:16777216; do
    k=${ks%%:*}; s=${ks#*:}
    step fig3 tracing $k $s
    $B $k --size $s --runtime locus --workers 2 --scheduler cilk --schedule random,traced \
      --reps 5 --json $D/fig3-tracing-$k.json > $D/fig3-tracing-$k.txt 2>&1 || true
  done
  ;;
locality)
  # Modelled locality: 16 workers on a virtual 4 sockets x 4 cores, 6 MiB L3 each.
  for ks in memcpy:8MiBx4 memcpy:64MiBx4 heat:1024x1024x20 fdtd:500x600x10 floyd:256 cg:S scan:4194304; do
    k=${ks%%:*}; s=${ks#*:}
    m=random,stows,stuws,relws
    case $k in memcpy|heat) m=$m,loop,designed ;; esac
    step locality $k $s
    $B $k --size $s --runtime locus --workers 16 --topology sockets=4,cores=4,l3=6MiB \
      --accounting --scheduler cilk --schedule $m --reps 1 \
      --json $D/locality-$k-$s.json > $D/locality-$k-$s.txt 2>&1 || true
  done
  ;;
locality-loop)
  # The same model for fdtd, floyd, cg and scan once they had loop and designed modes (every
  # mode again, one run each, so the rows compare within one invocation).
  for ks in fdtd:500x600x10 floyd:256 cg:S scan:4194304; do
    k=${ks%%:*}; s=${ks#*:}
    step locality-loop $k $s
    $B $k --size $s --runtime locus --workers 16 --topology sockets=4,cores=4,l3=6MiB \
      --accounting --scheduler cilk --schedule random,stows,stuws,relws,loop,designed --reps 1 \
      --json $D/locality-loop-$k-$s.json > $D/locality-loop-$k-$s.txt 2>&1 || true
  done
  ;;
loop5)
  # Steal-tree size after exactly 5 RelWS iterations of the loop, 2 and 4 workers.
  for w in 2 4; do
    step loop5 w$w
    LOCUS_BENCH_LOOP_FIXED=5 $B memcpy --size 64MiBx4 --runtime locus --workers $w --scheduler cilk \
      --schedule loop --reps 1 --json $D/loop5-memcpy-w$w.json > /dev/null 2>&1 || true
    LOCUS_BENCH_LOOP_FIXED=5 $B heat --size 2048x1024x50 --runtime locus --workers $w --scheduler cilk \
      --schedule loop --reps 1 --json $D/loop5-heat-w$w.json > /dev/null 2>&1 || true
  done
  ;;
loop5-kernels)
  # The same for fdtd, floyd, cg and scan (their loop modes came later), at the time sizes.
  for w in 2 4; do
    for ks in fdtd:500x600x100 floyd:512 cg:W scan:16777216; do
      k=${ks%%:*}; s=${ks#*:}
      step loop5 $k w$w
      LOCUS_BENCH_LOOP_FIXED=5 $B $k --size $s --runtime locus --workers $w --scheduler cilk \
        --schedule loop --reps 1 --json $D/loop5-$k-w$w.json > /dev/null 2>&1 || true
    done
  done
  ;;
time)
  # memcpy and heat at 1 and 2 workers against OpenMP static and OpenMP tasks.
  step time memcpy
  $B memcpy --size 256MiBx8 --runtime serial,locus,omp,omp-tasks --workers 1,2 --scheduler cilk \
    --schedule random,stows,stuws,relws,loop,designed --reps 5 \
    --json $D/time-memcpy.json > $D/time-memcpy.txt 2>&1 || true
  step time heat
  $B heat --size 2048x1024x50 --runtime serial,locus,omp,omp-tasks --workers 1,2 --scheduler cilk \
    --schedule random,stows,stuws,relws,loop,designed --reps 5 \
    --json $D/time-heat.json > $D/time-heat.txt 2>&1 || true
  ;;
time-loop)
  # fdtd, floyd, cg and scan: the loop and designed modes (random and stows beside them) at 1
  # and 2 real workers, no accounting, 5 interleaved repetitions. A second argument names a
  # repeat sweep (`run.sh time-loop second`: time-loop-KERNEL-second.json).
  for ks in fdtd:500x600x100 floyd:512 cg:W scan:16777216; do
    k=${ks%%:*}; s=${ks#*:}; o=$D/time-loop-$k${2:+-$2}
    step time-loop $k $s ${2:-}
    $B $k --size $s --runtime locus --workers 1,2 --scheduler cilk \
      --schedule random,stows,loop,designed --reps 5 \
      --json $o.json > $o.txt 2>&1 || true
  done
  ;;
esac
