#!/usr/bin/env python3
"""Median and min-max of each configuration in replay-driver JSON lines, and the median's
ratio to the untraced median. Usage: summarize.py FILE.jsonl..."""
import json
import statistics
import sys

for path in sys.argv[1:]:
    runs = {}
    for line in open(path):
        line = line.strip()
        if not line.startswith("{"):
            continue
        r = json.loads(line)
        runs.setdefault((r["config"], r["workers"]), []).append(r)
    base = {}
    for (cfg, w), rs in runs.items():
        if cfg == "untraced":
            base[w] = statistics.median(x["seconds"] for x in rs)
    for (cfg, w), rs in runs.items():
        s = [x["seconds"] for x in rs]
        m = statistics.median(s)
        steals = statistics.median(x["steals"] for x in rs)
        print(f"{path.split('/')[-1]} w{w} {cfg:16s} median {m:.3f} s "
              f"({min(s):.3f}-{max(s):.3f}, n={len(s)}) vs untraced {m / base[w] - 1:+.1%} "
              f"steals(median) {steals:.0f}")
