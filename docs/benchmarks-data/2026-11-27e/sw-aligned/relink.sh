#!/bin/bash
# relink.sh TREE OUT: locus-bench of TREE with smith-waterman's TUs built with 64-byte loop and function alignment
set -e
cd $1/build/release
ninja -t commands bin/locus-bench > /tmp/cmds.txt
grep -E "smith-waterman/(locus|serial).cpp" /tmp/cmds.txt | sed 's/-std=c++20/-std=c++20 -falign-loops=64 -falign-functions=64/' | sed 's/^ccache //' > /tmp/c1.sh
grep -E "(ar qc|ar rc|ranlib|llvm-ar|/ar ).*liblocus_kernels|locus_kernels.a" /tmp/cmds.txt | grep -v "^ccache" > /tmp/c2.sh || true
tail -1 /tmp/cmds.txt | sed "s| -o bin/locus-bench | -o $2 |" > /tmp/c3.sh
bash /tmp/c1.sh; bash /tmp/c2.sh; bash /tmp/c3.sh
touch $1/bench/kernels/smith-waterman/locus.cpp $1/bench/kernels/smith-waterman/serial.cpp
