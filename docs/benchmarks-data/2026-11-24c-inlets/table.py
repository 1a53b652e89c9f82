#!/usr/bin/env python3
"""Prints the inlet section's tables (docs/benchmarks-dataflow.md) from round-*.json here."""
import glob
import json
import os
import statistics

here = os.path.dirname(os.path.abspath(__file__))
rows = {}  # (size, workers) -> [median per round]
spread = {}
for path in sorted(glob.glob(os.path.join(here, "round-*.json"))):
    for r in json.load(open(path))["results"]:
        if r["runtime"] != "locus":
            continue
        key = (r["size"], r["workers"])
        rows.setdefault(key, []).append(r["median_s"])
        spread.setdefault(key, []).append((r["max_s"] - r["min_s"]) / r["median_s"] * 100)

print("| workers | spawn/sync fib 30 | EDT, inlets (30:edt) | EDT, events (30:edt-events) "
      "| inlets / spawn | events / spawn |")
print("|---|---|---|---|---|---|")
for w in (1, 2):
    s, i, e = (rows[(k, w)] for k in ("30", "30:edt", "30:edt-events"))
    ri = [a / b for a, b in zip(i, s)]
    re_ = [a / b for a, b in zip(e, s)]
    def cell(v, key):
        return "%.3f (%.3f - %.3f; spread %.0f%%)" % (
            statistics.median(v), min(v), max(v), statistics.median(spread[(key, w)]))
    print("| %d | %s | %s | %s | %.2f (%.2f - %.2f) | %.2f (%.2f - %.2f) |" % (
        w, cell(s, "30"), cell(i, "30:edt"), cell(e, "30:edt-events"),
        statistics.median(ri), min(ri), max(ri), statistics.median(re_), min(re_), max(re_)))
