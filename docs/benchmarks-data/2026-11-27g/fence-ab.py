#!/usr/bin/env python3
"""Summary of fence-ab.sh OUT (or default-ab.sh OUT with labels: fence-ab.py OUT base new): per
kernel, runtime and workers, the median [min-max] of the rounds' medians for each label (A, B:
full and asymmetric by default), the rounds in which B was faster, and the median of the
per-round ratios B/A; for locus at 1 worker also the ratio to the round's serial."""
import glob, json, os, statistics as st, sys
out = sys.argv[1]
A, B = (sys.argv[2], sys.argv[3]) if len(sys.argv) > 3 else ('full', 'asymmetric')  # file labels
runs = {}  # (kernel, runtime, workers) -> form -> round -> median
for path in glob.glob(os.path.join(out, '*.json')):
    kernel_file, form, rnd = os.path.basename(path)[:-5].rsplit('-', 2)
    for r in json.load(open(path))['results']:
        assert r['verified'], path
        runs.setdefault((r['kernel'], r['runtime'], r['workers']), {}).setdefault(form, {})[int(rnd)] = r['median_s']
print(f'| kernel | runtime | workers | {A} ms | {B} ms | {B} faster in | ratio {B}/{A} | x serial {A} / {B} |')
print('|---|---|---|---|---|---|---|---|')
for key in sorted(runs):
    f, a = runs[key].get(A, {}), runs[key].get(B, {})
    rounds = sorted(set(f) & set(a))
    if not rounds: continue
    fmt = lambda v: f"{1e3*st.median(v):.1f} [{1e3*min(v):.1f}-{1e3*max(v):.1f}]"
    fv, av = [f[r] for r in rounds], [a[r] for r in rounds]
    faster = sum(a[r] < f[r] for r in rounds)
    ratio = st.median([a[r] / f[r] for r in rounds])
    xs = ''
    ser = runs.get((key[0], 'serial', 1))
    if key[1] == 'locus' and key[2] == 1 and ser:
        xf = st.median([f[r] / ser[A][r] for r in rounds])
        xa = st.median([a[r] / ser[B][r] for r in rounds])
        xs = f'{xf:.2f} / {xa:.2f}'
    print(f'| {key[0]} | {key[1]} | {key[2]} | {fmt(fv)} | {fmt(av)} | {faster} of {len(rounds)} | {ratio:.3f} | {xs} |')
