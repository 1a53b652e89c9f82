#!/usr/bin/env python3
"""heat-ab.sh's OUT: per round each binary's locus and MPI + OpenMP medians (s); how often locus
beat MPI + OpenMP within a run, and how often new's locus beat base's in the same round."""
import glob, json, os, re, statistics, sys
runs = {}
for f in glob.glob(os.path.join(sys.argv[1], "*-*.json")):
    label, rnd = re.match(r"(\w+)-(\d+)\.json", os.path.basename(f)).groups()
    res = {r["runtime"]: r for r in json.load(open(f))["results"]}
    assert all(r["verified"] for r in res.values()), f
    runs[(label, int(rnd))] = (res["locus"]["median_s"], res["mpi-omp"]["median_s"])
rounds = sorted({r for _, r in runs})
for r in rounds:
    b, n = runs.get(("base", r)), runs.get(("new", r))
    print(f"round {r:2}: base locus {b[0]:.4f} omp {b[1]:.4f} | new locus {n[0]:.4f} omp {n[1]:.4f}")
for label in ("base", "new"):
    rows = [runs[(label, r)] for r in rounds]
    print(f"{label}: locus {statistics.median(l for l, _ in rows):.4f}, mpi-omp "
          f"{statistics.median(m for _, m in rows):.4f}; locus faster in "
          f"{sum(l < m for l, m in rows)} of {len(rows)}; ratio median "
          f"{statistics.median(l / m for l, m in rows):.3f}")
wins = sum(runs[("new", r)][0] < runs[("base", r)][0] for r in rounds)
print(f"new's locus faster than base's in {wins} of {len(rounds)} rounds; ratio median "
      f"{statistics.median(runs[('new', r)][0] / runs[('base', r)][0] for r in rounds):.3f}")
