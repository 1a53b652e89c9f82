#!/usr/bin/env python3
"""Prints the fib cutoff sweep's table (docs/benchmarks-dataflow.md) from round-*.json here:
per cutoff and worker count, the median over rounds of each version's median, and the EDT /
spawn ratio per round (median and range)."""
import glob
import json
import os
import statistics

here = os.path.dirname(os.path.abspath(__file__))
med = {}  # (size, runtime, workers) -> [median per round]
for path in sorted(glob.glob(os.path.join(here, "round-*.json"))):
    for r in json.load(open(path))["results"]:
        med.setdefault((r["size"], r["runtime"], r["workers"]), []).append(r["median_s"])

def m(v):
    return statistics.median(v)

print("| cutoff | w | serial | spawn/sync | EDT inlets | EDT events | tbb | omp "
      "| inlets / spawn | events / spawn |")
print("|---|---|---|---|---|---|---|---|---|---|")
for c in (25, 20, 15, 10):
    base = "40/%d" % c
    for w in (1, 2):
        s = med[(base, "locus", w)]
        i = med[(base + ":edt", "locus", w)]
        e = med[(base + ":edt-events", "locus", w)]
        ri = [a / b for a, b in zip(i, s)]
        re_ = [a / b for a, b in zip(e, s)]
        # The peers run their ordinary fib for every form of a size: all three rows pooled.
        tbb = [x for k in ("", ":edt", ":edt-events") for x in med[(base + k, "tbb", w)]]
        omp = [x for k in ("", ":edt", ":edt-events") for x in med[(base + k, "omp", w)]]
        ser = [x for k in ("", ":edt", ":edt-events") for x in med[(base + k, "serial", 1)]]
        print("| %d | %d | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.2f (%.2f - %.2f) "
              "| %.2f (%.2f - %.2f) |" % (c, w, m(ser), m(s), m(i), m(e), m(tbb), m(omp),
                                          m(ri), min(ri), max(ri), m(re_), min(re_), max(re_)))
