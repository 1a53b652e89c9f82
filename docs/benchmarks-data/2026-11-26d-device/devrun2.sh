#!/bin/bash
# The second device call: main 6a5dc88 (the kit's binaries) against the build with the workers'
# progress (NEWDIR: its locus-bench and locus-mpi-bench), Cholesky 4096/256 at 4 x 4 and 2 x 4,
# interleaved, 2 rounds (and the new build with --no-worker-progress, and bulk-sync); then the
# shared-memory Cholesky against oneTBB and OpenMP at 4 and 16 workers (is the 1-rank gap the
# task graph's?).
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
  done
  lg mpirun -np 4 $PE $NEW/locus-mpi-bench cholesky --chol-sizes 4096x256 --workers 4 --reps 5 --runtimes locus --no-worker-progress --json $O/chol4-newnwp-r$r.json
  lg mpirun -np 4 $PE $OLD/locus-mpi-bench cholesky --chol-sizes 4096x256 --workers 4 --reps 5 --runtimes mpi-omp --json $O/chol4-bsp-r$r.json
  # issue 21's own configuration, 2 ranks x 1 worker, each rank bound to one core, on a quiet machine
  for v in old new; do
    d=$OLD; [ $v = new ] && d=$NEW
    lg mpirun -np 2 --bind-to core $d/locus-mpi-bench cholesky --chol-sizes 4096x256 --workers 1 --reps 5 --runtimes locus --json $O/chol2x1-$v-r$r.json
  done
  lg mpirun -np 2 --bind-to core $OLD/locus-mpi-bench cholesky --chol-sizes 4096x256 --workers 1 --reps 5 --runtimes mpi-omp,scalapack,starpu-mpi --json $O/chol2x1-peers-r$r.json
done
lg $NEW/locus-bench cholesky --size 4096x256 --runtime locus,omp,tbb --workers 4,16 --reps 5 --json $O/chol-shm.json
echo "done $(( $(date +%s) - t0 ))s" >> $O/log.txt
tar czf $OUT/all.tgz -C $O .
