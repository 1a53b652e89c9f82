#!/bin/bash
# The third device call: issue 20's times, main 6a5dc88 (the kit's locus-bench) against the
# merged build (NEWDIR/locus-bench: the frame header and ramp of 2026-11-26d), interleaved,
# 3 rounds of fib 35 and nqueens 12:nocutoff at 1 and 2 workers with their serial versions.
# Usage: devrun3.sh KIT.tar.gz NEWDIR   (everything lands in $OUT/all.tgz)
set -u
KD=$(mktemp -d); tar xf $1 -C $KD; . $(dirname $0)/kitenv.sh
OLD=$K/bin; NEW=$(cd $2 && pwd); O=$(mktemp -d); t0=$(date +%s)
lg() { echo "## $(( $(date +%s) - t0 ))s $*" >> $O/log.txt; timeout 90 "$@" >> $O/log.txt 2>&1; echo "rc=$?" >> $O/log.txt; }
for r in 1 2 3; do
  for v in old new; do
    d=$OLD; [ $v = new ] && d=$NEW
    lg $d/locus-bench fib --size 35 --runtime serial,locus --workers 1,2 --reps 5 --json $O/fib-$v-r$r.json
    lg $d/locus-bench nqueens --size 12:nocutoff --runtime serial,locus --workers 1,2 --reps 5 --json $O/nq-$v-r$r.json
  done
done
echo "done $(( $(date +%s) - t0 ))s" >> $O/log.txt
tar czf $OUT/all.tgz -C $O .
