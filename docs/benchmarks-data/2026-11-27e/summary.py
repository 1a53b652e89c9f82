#!/usr/bin/env python3
"""Medians of locus-bench runs from run.sh's folders, base against new, sorted, in ms:
   summary.py DIR   (files *-base-N.json and *-new-N.json; every result must be verified)"""
import collections, glob, json, os, sys

rows = collections.defaultdict(list)
for f in sorted(glob.glob(os.path.join(sys.argv[1], '*.json'))):
    side = 'base' if '-base-' in os.path.basename(f) else 'new'
    for r in json.load(open(f))['results']:
        if not r['verified']:
            sys.exit(f'{f}: {r["kernel"]} not verified')
        key = (r['kernel'], r['size'], r['runtime'], r.get('flow', '-'), r['workers'])
        rows[(key, side)].append(r['median_s'] * 1000)
for key in sorted({k for k, _ in rows}):
    b, n = sorted(rows[(key, 'base')]), sorted(rows[(key, 'new')])
    mid = lambda v: (v[(len(v) - 1) // 2] + v[len(v) // 2]) / 2
    print('| %s %s, %s, flow %s | %d | %s | %s | %+.1f %% |' % (
        key[0], key[1], key[2], key[3], key[4], ', '.join('%.1f' % x for x in b),
        ', '.join('%.1f' % x for x in n), 100 * (mid(n) / mid(b) - 1)))
