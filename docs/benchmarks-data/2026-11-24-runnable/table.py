import json, glob, re, statistics as st
log = {}
for line in open('docs/benchmarks-data/2026-11-24-runnable/load.txt'):
    p = line.split()
    if len(p) >= 4: log[(p[0], p[1])] = (p[2], ' '.join(p[3:]))
rows = []
print('| build, round | time UTC, load (1/5/15 min) | workers | spawn/sync fib 30 | EDT fib 30:edt | EDT / spawn |')
print('|---|---|---|---|---|---|')
agg = {}
for w in (1, 2):
  for r in range(1, 6):
    for v in ('before', 'after'):
        f = f'docs/benchmarks-data/2026-11-24-runnable/{v}-{r}.json'
        try: d = json.load(open(f))
        except Exception: continue
        res = {(x['size'], x['workers']): x for x in d['results']}
        a = res[('30', w)]; b = res[('30:edt', w)]
        t, l = log[(v, str(r))]
        fmt = lambda x: f"{x['median_s']:.3f} ({x['min_s']:.3f} – {x['max_s']:.3f})"
        ratio = b['median_s'] / a['median_s']
        agg.setdefault((v, w), []).append((a['median_s'], b['median_s'], ratio))
        print(f'| {v}, {r} | {t}, {l} | {w} | {fmt(a)} | {fmt(b)} | {ratio:.2f} |')
print()
print('| build | workers | median of round medians: spawn/sync | EDT | EDT / spawn (median of rounds, range) |')
print('|---|---|---|---|---|')
for (v, w), xs in sorted(agg.items(), key=lambda k: (k[0][1], k[0][0] != 'before')):
    s = st.median(x[0] for x in xs); e = st.median(x[1] for x in xs); rs = [x[2] for x in xs]
    print(f'| {v} | {w} | {s:.3f} | {e:.3f} | {st.median(rs):.2f} ({min(rs):.2f} – {max(rs):.2f}) |')
