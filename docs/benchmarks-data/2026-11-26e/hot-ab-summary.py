#!/usr/bin/env python3
"""Summary of hot-ab.sh's output: per kernel and binary, the median of each round's locus
median, and the ratio locus / serial of the same run (median over rounds, with min-max)."""
import glob, json, os, statistics, sys
out = sys.argv[1]
for k in ("fib", "nq"):
    for v in ("base", "new"):
        loc, ratio = [], []
        for f in sorted(glob.glob(os.path.join(out, f"{k}-{v}-*.json"))):
            runs = {r["runtime"]: r for r in json.load(open(f))["results"]}
            assert all(r.get("verified") for r in runs.values()), f
            loc.append(runs["locus"]["median_s"])
            ratio.append(runs["locus"]["median_s"] / runs["serial"]["median_s"])
        if loc:
            print(f"{k:3} {v:4} locus median {statistics.median(loc)*1e3:8.1f} ms "
                  f"[{min(loc)*1e3:.1f}-{max(loc)*1e3:.1f}]  x serial {statistics.median(ratio):.2f} "
                  f"[{min(ratio):.2f}-{max(ratio):.2f}]  rounds {len(loc)}")
