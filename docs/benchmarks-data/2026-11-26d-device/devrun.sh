#!/bin/bash
# Runs on the 16-core device: issue 21's 4 ranks x 4 workers and the 1 -> 4 rank scaling, with the
# Open MPI kit (mkkit.sh) unpacked under $KD. Every command has its own time bound.
# Usage: devrun.sh KIT.tar.gz  (writes under $OUT)
set -u
KD=$(mktemp -d); tar xf $1 -C $KD; . $(dirname $0)/kitenv.sh
B=$K/bin/locus-mpi-bench; t0=$(date +%s)
{ nproc; lscpu | grep -E 'Model name|Socket|NUMA|L3'; ldd --version | head -1; } > $OUT/machine.txt 2>&1
lg() { echo "## $(( $(date +%s) - t0 ))s $*" >> $OUT/log.txt; timeout 90 "$@" >> $OUT/log.txt 2>&1; echo "rc=$?" >> $OUT/log.txt; }
PE="--map-by slot:PE=4 --bind-to core"
lg mpirun -np 2 $PE $B pingpong --reps 3 --workers 4 --json $OUT/pp-2x4.json
for np in 1 2 4; do
  lg mpirun -np $np $PE $B cholesky --chol-sizes 4096x256,6144x256 --workers 4 --reps 5 \
     --runtimes locus,mpi-omp,starpu-mpi --json $OUT/chol-${np}x4.json
done
lg mpirun -np 16 --bind-to core $B cholesky --chol-sizes 4096x256 --reps 5 --runtimes scalapack,locus,mpi-omp --json $OUT/chol-16x1.json
lg mpirun -np 4 --bind-to core $B cholesky --chol-sizes 4096x256 --reps 5 --runtimes scalapack --json $OUT/chol-4x1-scalapack.json
for np in 1 2 4; do lg mpirun -np $np $PE $B heat --workers 4 --reps 5 --json $OUT/heat-${np}x4.json; done
# the second round of the 4 x 4 point, for its spread
lg mpirun -np 4 $PE $B cholesky --chol-sizes 4096x256 --workers 4 --reps 5 --runtimes locus,mpi-omp --json $OUT/chol-4x4-r2.json
L=$K/bin/locus-bench
for s in cilk laws; do lg $L heat,sor,cilksort --size default --runtime locus --scheduler $s --workers 16 --reps 5 --json $OUT/loc-$s.json; done
lg $L fib --size 35 --runtime serial,locus --workers 1,2,16 --reps 5 --json $OUT/fib.json
lg $L nqueens --size 12:nocutoff --runtime serial,locus --workers 1,2,16 --reps 5 --json $OUT/nq.json
echo "done $(( $(date +%s) - t0 ))s" >> $OUT/log.txt
