#!/usr/bin/env python3
"""Summary of peers.sh OUT: per kernel, runtime and workers, the median [min-max] of the rounds'
medians, and the median of the per-round ratios to the round's serial."""
import glob, json, os, statistics as st, sys
runs = {}  # (kernel, runtime, workers) -> round -> median
for path in glob.glob(os.path.join(sys.argv[1], '*.json')):
    rnd = int(os.path.basename(path)[:-5].rsplit('-', 1)[1])
    for r in json.load(open(path))['results']:
        assert r['verified'], path
        runs.setdefault((r['kernel'], r['runtime'], r['workers']), {})[rnd] = r['median_s']
print('| kernel | runtime | workers | ms, median [min-max] | x serial (median of rounds) |')
print('|---|---|---|---|---|')
for key in sorted(runs):
    v = runs[key]
    ser = runs.get((key[0], 'serial', 1), {})
    vals = [v[r] for r in sorted(v)]
    xs = st.median([v[r] / ser[r] for r in v if r in ser]) if ser else float('nan')
    print(f'| {key[0]} | {key[1]} | {key[2]} | {1e3*st.median(vals):.1f} [{1e3*min(vals):.1f}-{1e3*max(vals):.1f}] | {xs:.2f} |')
