#!/usr/bin/env python3
# Summary of pp-ab.sh's output: per binary, the one-way latency of locus and of raw MPI (µs)
# and their ratio per run (the same process), as median [min-max] over the rounds; the idle
# worker's polls per round trip where recorded.
import glob, json, os, statistics, sys
out = sys.argv[1]
by = {}
for f in sorted(glob.glob(os.path.join(out, '*-r*.json'))):
    name = os.path.basename(f).rsplit('-r', 1)[0]
    d = json.load(open(f))
    rows = d['results'] if isinstance(d, dict) and 'results' in d else d
    lat = {r['runtime']: r for r in rows}
    if 'locus' not in lat or 'mpi' not in lat:
        continue
    e = by.setdefault(name, {'locus': [], 'mpi': [], 'ratio': [], 'polls': []})
    e['locus'].append(lat['locus']['latency_us'])
    e['mpi'].append(lat['mpi']['latency_us'])
    e['ratio'].append(lat['locus']['latency_us'] / lat['mpi']['latency_us'])
    if 'worker_polls_per_trip' in lat['locus']:
        e['polls'].append(lat['locus']['worker_polls_per_trip'])
def f(v, p=3):
    return f"{statistics.median(v):.{p}f} [{min(v):.{p}f}-{max(v):.{p}f}]" if v else '-'
print("| binary | runs | locus µs | raw MPI µs | locus / raw | worker polls / trip |")
print("|---|---|---|---|---|---|")
for n, e in by.items():
    print(f"| {n} | {len(e['ratio'])} | {f(e['locus'])} | {f(e['mpi'])} | {f(e['ratio'], 2)} | {f(e['polls'], 1)} |")
