#!/usr/bin/env python3
"""Summary of fence-ab.sh OUT: per kernel, runtime and workers, the median [min-max] of the
rounds' medians for each form, the rounds in which asymmetric was faster, and the median of
the per-round ratios asymmetric/full; for locus at 1 worker also the ratio to the round's serial."""
import glob, json, os, statistics as st, sys
out = sys.argv[1]
runs = {}  # (kernel, runtime, workers) -> form -> round -> median
for path in glob.glob(os.path.join(out, '*.json')):
    kernel_file, form, rnd = os.path.basename(path)[:-5].rsplit('-', 2)
    for r in json.load(open(path))['results']:
        assert r['verified'], path
        runs.setdefault((r['kernel'], r['runtime'], r['workers']), {}).setdefault(form, {})[int(rnd)] = r['median_s']
print('| kernel | runtime | workers | full ms | asymmetric ms | asymmetric faster in | ratio asym/full | x serial full / asym |')
print('|---|---|---|---|---|---|---|---|')
for key in sorted(runs):
    f, a = runs[key].get('full', {}), runs[key].get('asymmetric', {})
    rounds = sorted(set(f) & set(a))
    if not rounds: continue
    fmt = lambda v: f"{1e3*st.median(v):.1f} [{1e3*min(v):.1f}-{1e3*max(v):.1f}]"
    fv, av = [f[r] for r in rounds], [a[r] for r in rounds]
    faster = sum(a[r] < f[r] for r in rounds)
    ratio = st.median([a[r] / f[r] for r in rounds])
    xs = ''
    ser = runs.get((key[0], 'serial', 1))
    if key[1] == 'locus' and key[2] == 1 and ser:
        xf = st.median([f[r] / ser['full'][r] for r in rounds])
        xa = st.median([a[r] / ser['asymmetric'][r] for r in rounds])
        xs = f'{xf:.2f} / {xa:.2f}'
    print(f'| {key[0]} | {key[1]} | {key[2]} | {fmt(fv)} | {fmt(av)} | {faster} of {len(rounds)} | {ratio:.3f} | {xs} |')
