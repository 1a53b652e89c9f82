#!/usr/bin/env python3
"""Self instruction counts of a callgrind file (--dump-instr=no), by category and by function.
Usage: cgself.py FILE [TOP]   (categories: blas, alloc, mem, locus-mpi, locus-dataflow, locus, mpi-lib, other)"""
import re, sys, collections
def parse(path):
    names = {'ob': {}, 'fn': {}, 'cfn': {}, 'cob': {}}
    self_cost = collections.Counter(); ob = fn = cfn = None; skip = False
    global calls
    calls = collections.Counter()  # calls made to each function (by name), every caller
    for line in open(path):
        line = line.rstrip('\n')
        m = re.match(r'^(ob|fn|cob|cfn|fl|fi|fe|cfi|cfl)=(?:\((\d+)\))?\s*(.*)$', line)
        if m:
            kind, idx, name = m.groups(); key = {'cfn': 'fn', 'cob': 'ob'}.get(kind, kind)
            if idx is not None:
                d = names.setdefault(key, {})
                if name: d[idx] = name
                name = d.get(idx, name)
            if kind == 'ob': ob = name
            elif kind == 'fn': fn = name
            elif kind == 'cfn': cfn = name
            continue
        if line.startswith('calls='):
            skip = True; calls[cfn] += int(line.split('=')[1].split()[0]); continue
        if line and (line[0].isdigit() or line[0] in '+-*'):
            parts = line.split()
            if len(parts) >= 2:
                if skip: skip = False; continue
                self_cost[(ob, fn)] += int(parts[1])
    return self_cost
def category(ob, fn):
    o = (ob or '').lower(); f = fn or ''
    if 'openblas' in o or 'blas' in o or 'lapack' in o: return 'blas'
    if re.search(r'\b(malloc|free|calloc|realloc|_int_malloc|_int_free|operator new|operator delete|aligned_alloc|posix_memalign|memalign|tcache|malloc_consolidate|unlink_chunk|sysmalloc)', f): return 'alloc'
    if re.search(r'mem(cpy|move|set)|__memcpy|__memset|__memmove', f): return 'mem'
    if 'locus::mpi' in f: return 'locus-mpi'
    if 'locus::dataflow' in f: return 'locus-dataflow'
    if 'locus' in f: return 'locus'
    if 'libmpi' in o or 'openmpi' in o or 'libopen-' in o or 'pmix' in o or 'libevent' in o or 'hwloc' in o: return 'mpi-lib'
    return 'other'
if __name__ == '__main__':
    c = parse(sys.argv[1]); top = int(sys.argv[2]) if len(sys.argv) > 2 else 25
    cats = collections.Counter()
    for (ob, fn), v in c.items(): cats[category(ob, fn)] += v
    print('total', sum(c.values()))
    for k, v in cats.most_common(): print(f'{k:16s} {v:14,d}')
    print('-- top non-blas functions')
    for (ob, fn), v in c.most_common():
        if category(ob, fn) == 'blas': continue
        print(f'{v:12,d}  {category(ob, fn):14s} {fn[:150]}'); top -= 1
        if top == 0: break
