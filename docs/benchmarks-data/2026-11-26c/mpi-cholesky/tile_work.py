#!/usr/bin/env python3
"""Tile work per rank of the distributed Cholesky on a P x Q block-cyclic grid, in units of b^3
(gemm 2, syrk 1, trsm 1, potrf 1/3), over the serial task order of bench/kernels/cholesky.
Usage: tile_work.py [NT=16] [P=2] [Q=1]"""
import sys

nt, p, q = (int(x) for x in (sys.argv[1:] + ["16", "2", "1"][len(sys.argv) - 1:])[:3])
owner = lambda i, j: (i % p) * q + (j % q)
w = [0.0] * (p * q)
for k in range(nt):
    w[owner(k, k)] += 1 / 3
    for i in range(k + 1, nt):
        w[owner(i, k)] += 1
        for j in range(k + 1, i + 1):
            w[owner(i, j)] += 1 if i == j else 2
print("work per rank (b^3):", ", ".join(f"{x:.1f}" for x in w))
print(f"most / least: {max(w) / min(w):.3f}")
