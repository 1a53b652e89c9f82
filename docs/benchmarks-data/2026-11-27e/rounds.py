#!/usr/bin/env python3
"""Round by round: variant A's run median against variant B's (start-ab.sh / chol-grid.sh OUT):
   rounds.py OUT A B   (e.g. new-flow-1x2 mpi-omp-2x1): rounds where A was faster, ratios."""
import json, os, re, statistics, sys
out, a, b = sys.argv[1:4]
def runs(name):
    r = {}
    for f in os.listdir(out):
        m = re.fullmatch(re.escape(name) + r"-(\d+)\.json", f)
        if m:
            r[int(m.group(1))] = json.load(open(os.path.join(out, f)))["results"][0]["median_s"]
    return r
ra, rb = runs(a), runs(b)
common = sorted(set(ra) & set(rb))
ratios = [ra[k] / rb[k] for k in common]
print(f"{a} vs {b}: {sum(x < 1 for x in ratios)} of {len(common)} rounds faster; "
      f"ratio median {statistics.median(ratios):.4f}, range {min(ratios):.4f}-{max(ratios):.4f}")
