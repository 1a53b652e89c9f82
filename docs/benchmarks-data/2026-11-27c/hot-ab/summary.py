#!/usr/bin/env python3
# Medians [min-max] over the rounds of run.sh's OUT, per kernel, binary, runtime and workers.
import glob, json, os, statistics, sys
out = sys.argv[1]
rows = {}
for f in sorted(glob.glob(os.path.join(out, '*.json'))):
    k, v, _ = os.path.basename(f)[:-5].split('-')
    d = json.load(open(f))
    for r in (d['results'] if isinstance(d, dict) else d):
        assert r.get('verified', True), f
        rows.setdefault((k, r['runtime'], r.get('workers', 0), v), []).append(r['median_s'] * 1e3)
print("| kernel | runtime | workers | base ms | new ms |")
print("|---|---|---|---|---|")
for key in sorted({(k, rt, w) for k, rt, w, _ in rows}):
    cell = lambda v: (lambda x: f"{statistics.median(x):.1f} [{min(x):.1f}-{max(x):.1f}]")(rows[key + (v,)]) if key + (v,) in rows else '-'
    print(f"| {key[0]} | {key[1]} | {key[2]} | {cell('base')} | {cell('new')} |")
