#!/usr/bin/env python3
"""A model of the distributed tiled Cholesky on P x Q ranks of one worker each: how long the
factorisation takes under a given order of each rank's ready tasks, and the bulk-synchronous
schedule, from the tile kernels' times and a remote dependence's latency. It leaves out every
runtime cost but that latency (no task overhead, no communication worker's CPU, no cache or
memory effects, kernels of constant time): it bounds what a task order can win, it does not
predict a runtime's time.

Tasks are those of bench/kernels/cholesky (potrf, trsm, syrk, gemm per step k, the serial
order), owner computes on the block-cyclic map of locus-mpi-bench (tile (i, j) on rank
(i mod P) * Q + j mod Q). A tile read by another rank is there LAT after its producer ended.
Each rank runs, whenever it is free, the ready task (inputs there) first in its order:
  lifo   the newest ready first (a deque's owner);
  fifo   the oldest ready first;
  panel  the priority of bench/mpi/cholesky_locus.cpp (column j before later columns; potrf,
         then trsm, then the updates), ties in serial order.
bsp: per step, potrf on its owner, then every trsm of the column (in parallel across ranks),
then a broadcast (LAT), then the updates (in parallel): the sum of each phase's slowest rank.

usage: schedule_model.py [--nt 16] [--costs POTRF,TRSM,SYRK,GEMM] [--lat MS] [--grids 2x1,1x2]
Costs in ms (default: tile 256 on this VM, tile_kernels.cpp: 0.215, 0.613, 0.434, 0.643).
"""
import argparse
import heapq
import itertools


def tasks(nt):
    for k in range(nt):
        yield ("potrf", k, k, k)
        for i in range(k + 1, nt):
            yield ("trsm", i, k, k)
        for i in range(k + 1, nt):
            yield ("syrk", i, i, k)
            for j in range(k + 1, i):
                yield ("gemm", i, j, k)


def graph(nt):
    ts = list(tasks(nt))
    last, final = {}, {}
    preds = [[] for _ in ts]
    for n, (op, i, j, k) in enumerate(ts):
        if (i, j) in last:
            preds[n].append(last[(i, j)])
        rd = {"potrf": [], "trsm": [(k, k)], "syrk": [(i, k)], "gemm": [(i, k), (j, k)]}[op]
        preds[n] += [final[t] for t in rd]
        last[(i, j)] = n
        if op in ("potrf", "trsm"):
            final[(i, j)] = n
    succ = [[] for _ in ts]
    for n, ps in enumerate(preds):
        for p in ps:
            succ[p].append(n)
    return ts, preds, succ


def simulate(nt, p, q, cost, lat, order):
    ts, preds, succ = graph(nt)
    owner = [(i % p) * q + (j % q) for _, i, j, _ in ts]
    ranks = p * q
    left = [len(x) for x in preds]
    avail = [0.0] * len(ts)
    seq = itertools.count()
    kind = {"potrf": 3, "trsm": 2, "syrk": 1, "gemm": 1}

    def key(n):
        op, _, j, _ = ts[n]
        if order == "lifo":
            return (-next(seq),)
        if order == "fifo":
            return (next(seq),)
        return (-((nt - j) * 4 + kind[op]), n)

    ready = [[] for _ in range(ranks)]  # (available at, key, task)
    for n in range(len(ts)):
        if left[n] == 0:
            ready[owner[n]].append((0.0, key(n), n))
    free, idle, work = [0.0] * ranks, [0.0] * ranks, [0.0] * ranks
    end = 0.0
    for _ in range(len(ts)):
        best = None
        for r in range(ranks):
            if ready[r]:
                t = max(free[r], min(a for a, _, _ in ready[r]))
                if best is None or t < best[0]:
                    best = (t, r)
        t, r = best
        a, k, n = min((x for x in ready[r] if x[0] <= t), key=lambda x: x[1])
        ready[r].remove((a, k, n))
        idle[r] += t - free[r]
        c = cost[ts[n][0]]
        free[r] = t + c
        work[r] += c
        end = max(end, free[r])
        for s in succ[n]:
            avail[s] = max(avail[s], free[r] + (lat if owner[s] != r else 0.0))
            left[s] -= 1
            if left[s] == 0:
                ready[owner[s]].append((avail[s], key(s), s))
    return end, work, idle


def bsp(nt, p, q, cost, lat):
    own = lambda i, j: (i % p) * q + (j % q)  # noqa: E731
    total = 0.0
    for k in range(nt):
        total += cost["potrf"]
        w = [0.0] * (p * q)
        for i in range(k + 1, nt):
            w[own(i, k)] += cost["trsm"]
        total += max(w) + lat
        w = [0.0] * (p * q)
        for i in range(k + 1, nt):
            w[own(i, i)] += cost["syrk"]
            for j in range(k + 1, i):
                w[own(i, j)] += cost["gemm"]
        total += max(w)
    return total


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--nt", type=int, default=16)
    ap.add_argument("--costs", default="0.215,0.613,0.434,0.643")
    ap.add_argument("--lat", type=float, default=0.1)
    ap.add_argument("--grids", default="2x1,1x2")
    a = ap.parse_args()
    cost = dict(zip(["potrf", "trsm", "syrk", "gemm"], map(float, a.costs.split(","))))
    print(f"nt {a.nt}, costs {cost} ms, latency {a.lat} ms")
    print("grid  schedule  time ms  work per rank ms        idle per rank ms")
    for g in a.grids.split(","):
        p, q = map(int, g.split("x"))
        for order in ("lifo", "fifo", "panel"):
            end, work, idle = simulate(a.nt, p, q, cost, a.lat, order)
            print(f"{g:5s} {order:8s} {end:8.1f}  {[round(x, 1) for x in work]}  "
                  f"{[round(x, 1) for x in idle]}")
        print(f"{g:5s} {'bsp':8s} {bsp(a.nt, p, q, cost, a.lat):8.1f}")


if __name__ == "__main__":
    main()
