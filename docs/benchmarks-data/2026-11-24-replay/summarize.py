#!/usr/bin/env python3
"""Median (min-max) seconds and spread per (figure, config, workers, n) of fig2-driver JSON
lines, and each configuration's median against the reference config of the same n
(untraced, or untraced-slowed / untraced for Figure 2c). Usage: summarize.py FILE..."""
import json
import statistics
import sys
from collections import defaultdict

runs = defaultdict(list)
steals = defaultdict(list)
for path in sys.argv[1:]:
    for line in open(path):
        line = line.strip()
        if not line.startswith("{"):
            continue
        r = json.loads(line)
        key = (r["figure"], r["workers"], r["n"], r["config"])
        runs[key].append(r["seconds"])
        steals[key].append(r["steals"])

print("| figure | workers | n | config | runs | median s | min–max | spread | vs reference | steals (median) |")
print("|---|---|---|---|---|---|---|---|---|---|")
for key in sorted(runs):
    fig, w, n, cfg = key
    v = runs[key]
    med = statistics.median(v)
    ref_name = "untraced-slowed" if cfg.endswith("-slowed") else "untraced"
    ref = runs.get((fig, w, n, ref_name))
    rel = ""
    if ref and cfg != ref_name:
        rel = f"{(med / statistics.median(ref) - 1) * 100:+.1f}%"
    spread = (max(v) - min(v)) / med * 100
    print(f"| {fig} | {w} | {n} | {cfg} | {len(v)} | {med:.3f} | {min(v):.3f}–{max(v):.3f} | "
          f"{spread:.0f}% | {rel} | {statistics.median(steals[key]):.0f} |")
