#!/bin/bash
# Issue 20's no-regression target for the adaptive pop: the dataflow kernels (smith-waterman on
# the runtime's scheduler and on the flow scheduler, cholesky, fib as data-driven tasks) and the
# replay modes (heat: random, stows, stuws, relws), at 2 workers, LOCUS_POP_FENCE=F for each
# form named, the order rotated every round.
# Usage: regress-ab.sh BENCH OUT ROUNDS FORM... (summary: regress-ab.py OUT A B)
# ONLY="sw cholesky fibedt heat" (the default) picks the entries; SCHEDULES the heat schedules.
set -u
BENCH=$1 OUT=$2 ROUNDS=$3
shift 3
FORMS=("$@")
mkdir -p "$OUT"
n=${#FORMS[@]}
run() {  # NAME FORM ROUND ARGS...
  local name=$1 f=$2 r=$3
  shift 3
  LOCUS_POP_FENCE=$f "$BENCH" "$@" --runtime locus --workers 2 --reps 3 --json "$OUT/$name-$f-$r.json" > /dev/null
}
for r in $(seq 1 "$ROUNDS"); do
  uptime >> "$OUT/uptime.txt"
  for i in $(seq 0 $((n - 1))); do
    f=${FORMS[$(((i + r) % n))]}
    for e in ${ONLY:-sw cholesky fibedt heat}; do
      case $e in
        sw) run sw "$f" "$r" smith-waterman --flow off,half-pessimistic+priority+near-data ;;
        cholesky) run cholesky "$f" "$r" cholesky ;;
        fibedt) run fibedt "$f" "$r" fib --size 30:edt,30:edt-events ;;
        heat) run heat "$f" "$r" heat --schedule "${SCHEDULES:-random,stows,stuws,relws}" ;;
      esac
    done
  done
done
