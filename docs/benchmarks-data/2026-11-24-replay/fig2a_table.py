#!/usr/bin/env python3
"""Figure 2a's table from fig2-driver JSON lines: per n, each configuration's median seconds
(spread) and its median against untraced. Usage: fig2a_table.py FILE"""
import json
import statistics
import sys
from collections import defaultdict

runs = defaultdict(list)
for line in open(sys.argv[1]):
    r = json.loads(line)
    runs[(r["n"], r["config"])].append(r["seconds"])
configs = ["untraced", "traced", "stows", "stuws", "relws"]
print("| n | untraced | traced | StOWS | StUWS | RelWS |")
print("|---|---|---|---|---|---|")
for n in sorted({n for n, _ in runs}):
    u = statistics.median(runs[(n, "untraced")])
    cells = []
    for c in configs:
        v = runs[(n, c)]
        m = statistics.median(v)
        cell = f"{m:.3f} ({(max(v) - min(v)) / m * 100:.0f}%)"
        if c != "untraced":
            cell += f" **{(m / u - 1) * 100:+.0f}%**"
        cells.append(cell)
    print(f"| {n} | " + " | ".join(cells) + " |")
