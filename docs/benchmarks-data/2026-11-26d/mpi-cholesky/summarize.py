#!/usr/bin/env python3
"""Summarises run.sh's output: per variant, the median of 3 factorisations per round, the median
over rounds, and (locus) per-rank worker idle, every rank's communication worker CPU and the
workers' progress steps per factorisation. Usage: summarize.py DIR"""
import glob, json, os, re, statistics, sys

d = sys.argv[1]
rows = {}
for f in sorted(glob.glob(os.path.join(d, "chol-*-r*.json"))):
    m = re.match(r"chol-(.+)-r(\d+)\.json", os.path.basename(f))
    r = json.load(open(f))["results"][0]
    rows.setdefault(m.group(1), []).append((int(m.group(2)), r))
order = ["base", "locus", "locus-b500", "locus-b2000", "locus-b10000", "locus-nwp", "mpi-omp", "scalapack"]
for v in order + sorted(set(rows) - set(order)):
    if v not in rows:
        continue
    rs = sorted(rows[v], key=lambda x: x[0])
    med = [r["median_s"] for _, r in rs]
    line = f"{v:12s} per round: " + ", ".join(f"{x:.3f}" for x in med)
    line += f"  median {statistics.median(med):.3f} (min {min(med):.3f}, max {max(med):.3f})"
    line += f"  verified: {all(r['verified'] for _, r in rs)}"
    if "worker_idle_s" in rs[0][1]:
        ms = lambda xs: "/".join(f"{x*1e3:.0f}" for x in xs)
        line += "\n    idle r0/r1 ms: " + ", ".join(ms(r["worker_idle_s"]) for _, r in rs)
        line += "\n    comm cpu ms: " + ", ".join(
            ms(r["comm_cpu_s_per_rank"]) if "comm_cpu_s_per_rank" in r else f"{r['comm_cpu_s']*1e3:.0f}/?"
            for _, r in rs)
        if "worker_steps_per_rank" in rs[0][1]:
            line += "\n    worker steps (completed) r0/r1: " + ", ".join(
                "/".join(f"{s:.0f}({c:.0f})" for s, c in zip(r["worker_steps_per_rank"],
                                                              r["worker_step_completed_per_rank"]))
                for _, r in rs)
        line += "\n    lazy sleeps r0: " + ", ".join(f"{r['comm_lazy_sleeps']:.0f}" for _, r in rs)
    print(line)
print("uptime:")
print(open(os.path.join(d, "uptime.txt")).read())
