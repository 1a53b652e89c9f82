#!/bin/bash
# Builds a self-contained kit (Open MPI 4.1 + PMIx + their plugins + OpenBLAS/ScaLAPACK/StarPU and
# every shared library the benchmark binaries load, glibc excepted) for a machine that has no Open
# MPI, as a tar.gz small enough to carry (26 MB). Usage: mkkit.sh BUILD_BIN_DIR OUT.tar.gz
set -e
BIN=$1; OUTF=$2; K=$(mktemp -d)/kit; mkdir -p $K/bin $K/lib $K/openmpi3 $K/pmix $K/etc $K/share
cp $BIN/locus-mpi-bench $BIN/locus-bench $K/bin/
cp /usr/bin/orterun $K/bin/mpirun; cp /usr/bin/orted $K/bin/ 2>/dev/null || true
P=/usr/lib/x86_64-linux-gnu/openmpi/lib/openmpi3
# the plugins a one-node, shared-memory run can use (no UCX / OFI / PSM / InfiniBand)
for f in $P/*.so; do
  case $(basename $f) in *ucx*|*ofi*|*psm*|*openib*|*monitoring*|*treematch*|*flux*|*slurm*|*gridengine*|*romio*) ;; *) cp $f $K/openmpi3/ ;; esac
done
cp /usr/lib/x86_64-linux-gnu/pmix2/lib/pmix/*.so $K/pmix/
cp -r /usr/share/openmpi $K/share/ 2>/dev/null || true
cp /etc/openmpi/openmpi-mca-params.conf $K/etc/ 2>/dev/null || true
# the shared-library closure, glibc's own libraries excepted (the target has its glibc)
for f in $K/bin/* $K/openmpi3/*.so $K/pmix/*.so; do ldd $f 2>/dev/null | awk '/=> \//{print $3}'; done | sort -u |
  grep -v -E '/(libc|libm|libpthread|libdl|librt|ld-linux-x86-64|libresolv|libutil)\.so' | while read l; do
    cp -L $l $K/lib/; done
du -sh $K; (cd $(dirname $K) && tar cf - kit | gzip -9 > $OUTF); ls -la $OUTF
