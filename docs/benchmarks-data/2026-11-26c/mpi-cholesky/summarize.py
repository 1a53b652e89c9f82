#!/usr/bin/env python3
"""Summarises run.sh's output: per variant, the median of 3 per round, and (locus) per-rank
worker idle and rank 0's communication worker's CPU per factorisation. Usage: summarize.py DIR"""
import glob, json, os, re, statistics, sys

d = sys.argv[1]
rows = {}
for f in sorted(glob.glob(os.path.join(d, "chol-*-r*.json"))):
    m = re.match(r"chol-(.+)-r(\d+)\.json", os.path.basename(f))
    r = json.load(open(f))["results"][0]
    rows.setdefault(m.group(1), []).append((int(m.group(2)), r))
order = ["locus", "locus-s0", "locus-m2000", "mpi-omp", "scalapack"]
for v in order + sorted(set(rows) - set(order)):
    if v not in rows:
        continue
    rs = sorted(rows[v], key=lambda x: x[0])
    med = [r["median_s"] for _, r in rs]
    line = f"{v:12s} median_s per round: " + ", ".join(f"{x:.3f}" for x in med)
    line += f"  (median {statistics.median(med):.3f}, all verified: {all(r['verified'] for _, r in rs)})"
    if "worker_idle_s" in rs[0][1]:
        idle = [r["worker_idle_s"] for _, r in rs]
        line += "  idle r0/r1 ms: " + ", ".join(f"{a*1e3:.0f}/{b*1e3:.0f}" for a, b in idle)
        line += "  comm cpu ms: " + ", ".join(f"{r['comm_cpu_s']*1e3:.1f}" for _, r in rs)
    print(line)
print("uptime:")
print(open(os.path.join(d, "uptime.txt")).read())
