#!/usr/bin/env python3
"""Per run of run.sh: one-way latency (median of the reps) of raw MPI and locus and their ratio;
then heat 2-D's median per runtime. Usage: summarize.py OUTDIR"""
import glob, json, os, re, statistics, sys

d = sys.argv[1]
rows = {}
for f in sorted(glob.glob(os.path.join(d, "pp-*-r*.json"))):
    v, r = re.match(r".*pp-([\w-]+)-r(\d+)\.json", f).groups()
    res = json.load(open(f))
    res = res["results"] if isinstance(res, dict) else res
    by = {(x["size"], x["runtime"]): x for x in res}
    for size in sorted({s for s, _ in by}, key=lambda s: int(s[:-1])):
        raw, loc = by[(size, "mpi")], by[(size, "locus")]
        ratio = loc["latency_us"] / raw["latency_us"]
        rows.setdefault((size, v), []).append(ratio)
        print(f"{size:>9} {v:8} r{r}: raw {raw['latency_us']:9.3f} us  locus {loc['latency_us']:9.3f} us"
              f"  x{ratio:5.2f}")
print()
for (size, v), rs in sorted(rows.items()):
    print(f"{size:>9} {v:8}: locus/raw median x{statistics.median(rs):.2f}, range {min(rs):.2f}-{max(rs):.2f} over {len(rs)} runs")
heat = {}
for f in sorted(glob.glob(os.path.join(d, "heat-*-r*.json"))):
    v, r = re.match(r".*heat-([\w-]+)-r(\d+)\.json", f).groups()
    res = json.load(open(f))
    res = res["results"] if isinstance(res, dict) else res
    for x in res:
        heat.setdefault((v, x["runtime"]), []).append(x["median_s"])
print()
for (v, rt), ts in sorted(heat.items()):
    print(f"heat {v:8} {rt:8}: " + ", ".join(f"{t:.3f}" for t in ts) + f" s (median {statistics.median(ts):.3f})")
print("uptime:")
print(open(os.path.join(d, "uptime.txt")).read())
