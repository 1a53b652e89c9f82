#!/usr/bin/env python3
"""Summarises chol-grid.sh's OUT: per variant, the median over rounds of each run's median
(seconds) with the range, and for locus the per-rank idle and kernel times (ms, medians)."""
import glob
import json
import os
import re
import statistics
import sys

out = sys.argv[1]
rows = {}
for f in glob.glob(os.path.join(out, "*.json")):
    name = re.sub(r"-\d+\.json$", "", os.path.basename(f))
    for r in json.load(open(f))["results"]:
        rows.setdefault(name, []).append(r)
print("| variant | runs | median s | min–max of the runs' medians | idle per rank ms | kernels per rank ms |")
print("|---|---|---|---|---|---|")
for name in sorted(rows):
    rs = rows[name]
    m = [r["median_s"] for r in rs]
    idle = kern = ""
    if "worker_idle_s" in rs[0]:
        n = len(rs[0]["worker_idle_s"])
        idle = " / ".join(f"{statistics.median(r['worker_idle_s'][k] for r in rs) * 1e3:.0f}" for k in range(n))
        kern = " / ".join(f"{statistics.median(r['kernel_s_per_rank'][k] for r in rs) * 1e3:.0f}" for k in range(n))
    ok = all(r["verified"] for r in rs)
    print(f"| {name} | {len(rs)} | {statistics.median(m):.4f} | {min(m):.4f}–{max(m):.4f} | {idle} | {kern} |" + ("" if ok else " NOT VERIFIED"))
