#!/bin/bash
# The second device call: main 6a5dc88 (the kit's binaries) against the merged build (NEWDIR:
# its locus-bench and locus-mpi-bench), interleaved, 2 rounds; then the shared-memory Cholesky
# against oneTBB and OpenMP at 4 and 16 workers (is the 1-rank gap the task graph's?).
# Usage: devrun2.sh KIT.tar.gz NEWDIR   (everything lands in $OUT/all.tgz)
set -u
KD=$(mktemp -d); tar xf $1 -C $KD; . $(dirname $0)/kitenv.sh
OLD=$K/bin; NEW=$(cd $2 && pwd); O=$(mktemp -d); t0=$(date +%s)
lg() { echo "## $(( $(date +%s) - t0 ))s $*" >> $O/log.txt; timeout 90 "$@" >> $O/log.txt 2>&1; echo "rc=$?" >> $O/log.txt; }
PE="--map-by slot:PE=4 --bind-to core"
for r in 1 2; do
  for v in old new; do
    d=$OLD; [ $v = new ] && d=$NEW
    lg mpirun -np 4 $PE $d/locus-mpi-bench cholesky --chol-sizes 4096x256 --workers 4 --reps 5 --runtimes locus --json $O/chol4-$v-r$r.json
    lg mpirun -np 2 $PE $d/locus-mpi-bench cholesky --chol-sizes 4096x256 --workers 4 --reps 5 --runtimes locus --json $O/chol2-$v-r$r.json
    lg $d/locus-bench fib --size 35 --runtime serial,locus --workers 1 --reps 5 --json $O/fib-$v-r$r.json
    lg $d/locus-bench nqueens --size 12:nocutoff --runtime serial,locus --workers 1 --reps 5 --json $O/nq-$v-r$r.json
  done
  lg mpirun -np 4 $PE $OLD/locus-mpi-bench cholesky --chol-sizes 4096x256 --workers 4 --reps 5 --runtimes mpi-omp --json $O/chol4-bsp-r$r.json
done
lg $NEW/locus-bench cholesky --size 4096x256 --runtime locus,omp,tbb --workers 4,16 --reps 5 --json $O/chol-shm.json
echo "done $(( $(date +%s) - t0 ))s" >> $O/log.txt
tar czf $OUT/all.tgz -C $O .
