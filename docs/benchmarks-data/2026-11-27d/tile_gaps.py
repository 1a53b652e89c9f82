#!/usr/bin/env python3
"""Where the ranks of a locus Cholesky idle: reads the traces of
`locus-mpi-bench cholesky --tile-trace PREFIX` (PREFIX.0, PREFIX.1, ...; ranks on one host,
so one steady clock) and prints, per factorisation, the makespan from the first graph's
creation, each rank's busy time (its tile kernels) and its idle gaps longer than --gap ms:
which task ended the gap and, for each tile it read from another rank, how long before the
task's start that tile was final on its owner (a large value: the task waited for something
else, the order of this rank's queue; a small one: it waited for the tile itself).

It also prints each kernel's median time over the traces (the costs for schedule_model.py).

usage: tile_gaps.py PREFIX [--ranks N] [--graph G] [--gap MS] [--list N]
"""
import argparse
import statistics

OPS = ["potrf", "trsm", "syrk", "gemm"]


def load(path):
    graphs = []
    for line in open(path):
        if line.startswith("#"):
            continue
        f = line.split()
        if f[0] == "graph":
            graphs.append({"start": float(f[1]), "spans": []})
            continue
        graphs[-1]["spans"].append(tuple(int(x) for x in f[:4]) + (float(f[4]), float(f[5])))
    return graphs


def reads(op, i, j, k):
    if op == 1:
        return [(k, k)]
    if op == 2:
        return [(i, k)]
    if op == 3:
        return [(i, k), (j, k)]
    return []


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("prefix")
    ap.add_argument("--ranks", type=int, default=2)
    ap.add_argument("--graph", type=int, default=-1, help="one factorisation (default: all)")
    ap.add_argument("--gap", type=float, default=0.3, help="ms")
    ap.add_argument("--list", type=int, default=12, help="gaps listed per rank")
    a = ap.parse_args()
    runs = [load(f"{a.prefix}.{r}") for r in range(a.ranks)]
    took = {op: [] for op in range(4)}
    for run in runs:
        for g in run:
            for op, *_, s, e in g["spans"]:
                took[op].append((e - s) * 1e3)
    print("kernel medians, every rank and factorisation (schedule_model.py --costs): " +
          ",".join(f"{statistics.median(took[op]):.3f}" for op in range(4)) + " ms")
    graphs = range(len(runs[0])) if a.graph < 0 else [a.graph]
    for g in graphs:
        per = [runs[r][g] for r in range(a.ranks)]
        t0 = min(p["start"] for p in per)
        final = {}
        for r, p in enumerate(per):
            for op, i, j, k, s, e in p["spans"]:
                if op in (0, 1):
                    final[(i, j)] = (r, e)
        end = max(e for p in per for *_, e in p["spans"])
        print(f"factorisation {g}: makespan {(end - t0) * 1e3:.1f} ms")
        for r, p in enumerate(per):
            spans = sorted(p["spans"], key=lambda x: x[4])
            prev, busy, gaps = p["start"], 0.0, []
            for op, i, j, k, s, e in spans:
                if (s - prev) * 1e3 > a.gap:
                    waits = [(t, (s - final[t][1]) * 1e3) for t in reads(op, i, j, k)
                             if final[t][0] != r]
                    gaps.append(((prev - t0) * 1e3, (s - prev) * 1e3, OPS[op], (i, j, k), waits))
                busy += e - s
                prev = e
            tail = (end - prev) * 1e3
            print(f"  rank {r}: busy {busy * 1e3:.1f} ms, gaps > {a.gap} ms: {len(gaps)}, "
                  f"{sum(x[1] for x in gaps):.1f} ms; start {(p['start'] - t0) * 1e3:.2f} ms, "
                  f"idle at the end {tail:.1f} ms")
            for at, gap, op, ijk, waits in sorted(gaps, key=lambda x: -x[1])[: a.list]:
                w = ", ".join(f"{t} final {d:.2f} ms before" for t, d in waits) or "no remote input"
                print(f"    at {at:7.1f} ms idle {gap:6.2f} ms, then {op}{ijk}: {w}")


if __name__ == "__main__":
    main()
