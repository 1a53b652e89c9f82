#!/usr/bin/env python3
"""heat.sh's OUT: per round the medians of locus and MPI + OpenMP (s), and the rounds locus won."""
import glob, json, os, statistics, sys
rows = []
for f in sorted(glob.glob(os.path.join(sys.argv[1], "heat-*.json"))):
    res = {r["runtime"]: r for r in json.load(open(f))["results"]}
    assert all(r["verified"] for r in res.values()), f
    rows.append((res["locus"]["median_s"], res["mpi-omp"]["median_s"]))
for l, m in rows:
    print(f"locus {l:.4f}  mpi-omp {m:.4f}  ratio {l / m:.3f}")
print(f"medians: locus {statistics.median(l for l, _ in rows):.4f}, mpi-omp "
      f"{statistics.median(m for _, m in rows):.4f}; locus faster in "
      f"{sum(l < m for l, m in rows)} of {len(rows)}")
