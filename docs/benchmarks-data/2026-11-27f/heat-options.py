#!/usr/bin/env python3
"""heat-options/: heat runs of one binary with module options (file TAG-ROUND.json): per TAG the
medians of locus and MPI + OpenMP, the ratio's median and the rounds locus won."""
import glob, json, os, re, statistics, sys
d = {}
for f in glob.glob(os.path.join(sys.argv[1], "*.json")):
    tag, _ = re.match(r"(.*)-(\d+)\.json", os.path.basename(f)).groups()
    res = {x["runtime"]: x for x in json.load(open(f))["results"]}
    d.setdefault(tag, []).append((res["locus"]["median_s"], res["mpi-omp"]["median_s"]))
for t, v in sorted(d.items()):
    print(f"{t:22} locus {statistics.median(a for a, _ in v):.4f} omp "
          f"{statistics.median(b for _, b in v):.4f} ratio "
          f"{statistics.median(a / b for a, b in v):.3f} wins {sum(a < b for a, b in v)}/{len(v)}")
