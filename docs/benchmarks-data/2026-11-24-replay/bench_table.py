#!/usr/bin/env python3
"""Markdown tables from locus-bench --json files (docs/benchmarks-replay.md).
  bench_table.py time FILE...      median (min-max) s, spread, vs the first locus row
  bench_table.py locality FILE...  local share, bytes by distance, modelled L3 misses/hits"""
import json
import sys

mode, files = sys.argv[1], sys.argv[2:]
if mode == "time":
    print("| kernel | size | runtime | schedule | w | median s | min–max | spread | vs random | steals |")
    print("|---|---|---|---|---|---|---|---|---|---|")
else:
    print("| kernel | size | schedule | local share | same core | same L3 | remote | L3 misses | L3 hits | steals |")
    print("|---|---|---|---|---|---|---|---|---|---|")
for f in files:
    results = json.load(open(f))["results"]
    base = {}
    for r in results:
        if r["runtime"] == "locus" and r["schedule"] == "random" and r.get("median_s"):
            base[r["workers"]] = r["median_s"]
    for r in results:
        st = r.get("stats") or {}
        steals = st.get("steals_succeeded", "")
        sched = r["schedule"] if r["runtime"] == "locus" else "-"
        if r.get("median_s") is None:
            print(f"| {r['kernel']} | {r['size']} | {r['runtime']} | {sched} | {r['workers']} | "
                  f"{r.get('detail', 'n/a')} |||||")
            continue
        if mode == "time":
            med, lo, hi = r["median_s"], r["min_s"], r["max_s"]
            rel = ""
            b = base.get(r["workers"])
            if b and not (r["runtime"] == "locus" and sched == "random"):
                rel = f"{(med / b - 1) * 100:+.1f}%"
            print(f"| {r['kernel']} | {r['size']} | {r['runtime']} | {sched} | {r['workers']} | "
                  f"{med:.3f} | {lo:.3f}–{hi:.3f} | {(hi - lo) / med * 100:.0f}% | {rel} | {steals} |")
        else:
            loc = st.get("locality", {})
            b = loc.get("bytes", {})
            tot = sum(b.values()) or 1
            print(f"| {r['kernel']} | {r['size']} | {sched} | {loc.get('local_share', 0) * 100:.2f}% | "
                  f"{b.get('same_core', 0) / tot * 100:.1f}% | {b.get('same_l3', 0) / tot * 100:.1f}% | "
                  f"{b.get('remote', 0) / tot * 100:.1f}% | {sum(loc.get('l3_misses', [])):,} | "
                  f"{sum(loc.get('l3_hits', [])):,} | {steals} |")
