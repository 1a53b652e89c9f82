#!/usr/bin/env python3
"""(B - A) / N self instructions per function, non-BLAS: the cost of N more factorisations.
Usage: cgdiff.py A B N [TOP]"""
import sys, collections
sys.path.insert(0, __import__('os').path.dirname(__file__))
import cgself
from cgself import parse, category
a = parse(sys.argv[1]); ca = cgself.calls
b = parse(sys.argv[2]); cb = cgself.calls
n = int(sys.argv[3])
top = int(sys.argv[4]) if len(sys.argv) > 4 else 30
d = collections.Counter({k: (b.get(k, 0) - a.get(k, 0)) / n for k in set(a) | set(b)})
cats = collections.Counter()
for k, v in d.items(): cats[category(*k)] += v
print('per factorisation: total %.0f' % sum(d.values()))
for k, v in cats.most_common(): print(f'{k:16s} {v:14,.0f}')
for f in ('malloc', 'operator new(unsigned long)', 'free', '__memcpy_avx_unaligned_erms',
          'locus::detail::pool_allocate(unsigned long)'):
    print(f'calls to {f}: {(cb.get(f, 0) - ca.get(f, 0)) / n:,.1f} per factorisation')
for (ob, fn), v in d.most_common():
    if category(ob, fn) == 'blas': continue
    if abs(v) < 1: break
    print(f'{v:12,.0f}  {category(ob, fn):14s} {fn[:140]}'); top -= 1
    if top == 0: break
