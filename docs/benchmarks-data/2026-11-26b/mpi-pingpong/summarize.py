#!/usr/bin/env python3
"""Per run of run.sh: one-way latency (median of the reps) of raw MPI and locus, their ratio,
and locus's hand-overs per round trip. Usage: summarize.py OUTDIR"""
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
        print(f"{size:>9} {v:4} r{r}: raw {raw['latency_us']:9.3f} us  locus {loc['latency_us']:9.3f} us"
              f"  x{ratio:5.2f}  handed/trip {loc['handed_over_per_trip']:.3f}")
print()
for (size, v), rs in sorted(rows.items()):
    print(f"{size:>9} {v:4}: locus/raw median x{statistics.median(rs):.2f}, range {min(rs):.2f}-{max(rs):.2f} over {len(rs)} runs")

chol = {}
for f in sorted(glob.glob(os.path.join(d, "chol-*-r*.json"))):
    rt, r = re.match(r".*chol-([\w-]+)-r(\d+)\.json", f).groups()
    res = json.load(open(f))
    res = res["results"] if isinstance(res, dict) else res
    for x in res:
        chol.setdefault(int(r), {})[x["runtime"]] = x["median_s"]
for r, m in sorted(chol.items()):
    line = "  ".join(f"{k} {v:.3f} s" for k, v in sorted(m.items()))
    extra = f"  locus/mpi-omp x{m['locus'] / m['mpi-omp']:.3f}" if "locus" in m and "mpi-omp" in m else ""
    print(f"cholesky 4096/256 r{r}: {line}{extra}")
