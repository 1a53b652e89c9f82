#!/bin/sh
# The runs of the "2026-11-24: the --flow axis" section of docs/benchmarks-dataflow.md, from the
# repository root, after `cmake --build --preset release --target locus-bench`. Each step writes
# its JSON and table here and logs its start, the time and the load average in run.log
# (`uptime` before and after each step: the machine was shared with other engineers' builds).
#
# steals: the timed grid, 2 workers, every option set under hierarchical and random victims, as
#   five single-repetition invocations (r1..r5) rather than one --reps 5: the order of the runs
#   is the same (every configuration once per repetition, interleaved), and each file keeps its
#   repetition's counters (a --reps 5 row keeps only the last repetition's stats).
# locality: the modelled locality on a virtual 2 sockets x 4 cores machine, 8 workers over the 2
#   real cores (oversubscribed: times meaningless), LOCUS_PLACES=none as in the earlier
#   locality figures, one repetition per configuration, the whole grid twice (-1, -2).
# reps5: the timed grid once more as one --reps 5 invocation per kernel (cholesky-flow.json,
#   sw-flow.json), for the times; its rows' stats are the last repetition's.
set -eu
D=docs/benchmarks-data/2026-11-24-flowaxis
B=build/release/bin/locus-bench
FLOWS=off,one,half-pessimistic,half-optimistic,half-pessimistic+priority,half-pessimistic+priority+near-data
step() { echo "== $* ($(date -u +%H:%M:%S), $(uptime))" | tee -a $D/run.log; }
case "${1:-all}" in
steals|all)
  for r in 1 2 3 4 5; do
    step steals cholesky r$r
    $B cholesky --size 4096x256 --runtime locus --flow $FLOWS --victims hierarchical,random \
      --workers 2 --reps 1 --timeout 120 --json $D/cholesky-flow-r$r.json > $D/cholesky-flow-r$r.txt 2>&1 || true
    step steals smith-waterman r$r
    $B smith-waterman --size 30000x256 --runtime locus --flow $FLOWS --victims hierarchical,random \
      --workers 2 --reps 1 --timeout 120 --json $D/sw-flow-r$r.json > $D/sw-flow-r$r.txt 2>&1 || true
  done
  step steals done
  ;;
esac
case "${1:-all}" in
locality|all)
  for i in ${LOCALITY_RUNS:-1 2}; do  # twice: the run-to-run variation of the modelled figures
    step locality cholesky $i
    LOCUS_PLACES=none $B cholesky --size 2048x256 --runtime locus --flow $FLOWS \
      --victims hierarchical,random --workers 8 --reps 1 --timeout 120 \
      --topology sockets=2,cores=4 --accounting \
      --json $D/cholesky-2048-locality-w8-$i.json > $D/cholesky-2048-locality-w8-$i.txt 2>&1 || true
    step locality smith-waterman $i
    LOCUS_PLACES=none $B smith-waterman --size 30000x256 --runtime locus --flow $FLOWS \
      --victims hierarchical,random --workers 8 --reps 1 --timeout 120 \
      --topology sockets=2,cores=4 --accounting \
      --json $D/sw-30000-locality-w8-$i.json > $D/sw-30000-locality-w8-$i.txt 2>&1 || true
  done
  step locality done
  ;;
esac
case "${1:-}" in
reps5)
  # The timed grid as one --reps 5 invocation per kernel (stats: the last repetition's).
  step reps5 cholesky
  $B cholesky --size 4096x256 --runtime locus --flow $FLOWS --victims hierarchical,random \
    --workers 2 --reps 5 --timeout 120 --json $D/cholesky-flow.json > $D/cholesky-flow.txt 2>&1 || true
  step reps5 smith-waterman
  $B smith-waterman --size 30000x256 --runtime locus --flow $FLOWS --victims hierarchical,random \
    --workers 2 --reps 5 --timeout 120 --json $D/sw-flow.json > $D/sw-flow.txt 2>&1 || true
  step reps5 done
  ;;
esac
case "${1:-}" in
peers)
  # The axis with the peers: one row each, none FAILED (small sizes).
  step peers
  $B cholesky,smith-waterman --size small --flow off,one,half-pessimistic+priority+near-data \
    --workers 2 --reps 1 --json $D/peers-small.json > $D/peers-small.txt 2>&1 || true
  ;;
esac
