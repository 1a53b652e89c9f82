#!/usr/bin/env python3
"""fjrec.sh's OUT: per worker count, each binary's median of the rounds' medians (ms), their
range, and the rounds where new was faster than base."""
import glob, json, os, re, statistics, sys
runs = {}
for f in glob.glob(os.path.join(sys.argv[1], "*.json")):
    label, rnd = re.match(r"(\w+)-(\d+)\.json", os.path.basename(f)).groups()
    for r in json.load(open(f))["results"]:
        runs[(label, int(rnd), r["workers"])] = r["median_s"] * 1e3
rounds = sorted({k[1] for k in runs})
for w in sorted({k[2] for k in runs}):
    b = [runs[("base", r, w)] for r in rounds]
    n = [runs[("new", r, w)] for r in rounds]
    wins = sum(x < y for x, y in zip(n, b))
    print(f"{w} worker(s): base {statistics.median(b):.1f} [{min(b):.1f}-{max(b):.1f}] ms, "
          f"new {statistics.median(n):.1f} [{min(n):.1f}-{max(n):.1f}] ms; new faster in "
          f"{wins} of {len(rounds)}; ratio median "
          f"{statistics.median(x / y for x, y in zip(n, b)):.3f}")
