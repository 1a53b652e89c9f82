#!/usr/bin/env python3
"""Summary of regress-ab.sh OUT A B: per configuration (kernel, size, schedule, flow, workers),
the median [min-max] of the rounds' medians under forms A and B, the rounds in which B was
faster, and the median of the per-round ratios B/A."""
import glob, json, os, statistics as st, sys
out, A, B = sys.argv[1], sys.argv[2], sys.argv[3]
runs = {}  # configuration -> form -> round -> median
for path in glob.glob(os.path.join(out, '*.json')):
    _, form, rnd = os.path.basename(path)[:-5].rsplit('-', 2)
    for r in json.load(open(path))['results']:
        assert r['verified'], path
        key = (r['kernel'], r['size'], r.get('schedule', '-'), r.get('flow', '-'), r['workers'])
        runs.setdefault(key, {}).setdefault(form, {})[int(rnd)] = r['median_s']
print(f'| kernel | size | schedule | flow | workers | {A} ms | {B} ms | {B} faster in | ratio {B}/{A} |')
print('|---|---|---|---|---|---|---|---|---|')
for key in sorted(runs):
    a, b = runs[key].get(A, {}), runs[key].get(B, {})
    rounds = sorted(set(a) & set(b))
    if not rounds: continue
    fmt = lambda v: f"{1e3*st.median(v):.1f} [{1e3*min(v):.1f}-{1e3*max(v):.1f}]"
    av, bv = [a[r] for r in rounds], [b[r] for r in rounds]
    faster = sum(b[r] < a[r] for r in rounds)
    ratio = st.median([b[r] / a[r] for r in rounds])
    print(f'| {" | ".join(map(str, key))} | {fmt(av)} | {fmt(bv)} | {faster} of {len(rounds)} | {ratio:.3f} |')
