#!/usr/bin/env python3
"""Markdown tables for docs/benchmarks-dataflow.md from the JSON of run.sh (run from the
repository root): python3 docs/benchmarks-data/2026-11-24-flowaxis/summarize.py"""
import json
import os
import statistics

D = os.path.dirname(os.path.abspath(__file__))


def load(name):
    path = os.path.join(D, name)
    return json.load(open(path))["results"] if os.path.exists(path) else None


def steals_table(prefix, title):
    runs = [load(f"{prefix}-r{r}.json") for r in range(1, 6)]
    runs = [r for r in runs if r]
    if not runs:
        return
    print(f"\n| {title} | victims | median s (min – max) | steals per run | median "
          f"| tasks stolen per run | median | core steals (median) |")
    print("|---|---|---|---|---|---|---|---|")
    for i, row in enumerate(runs[0]):
        rows = [r[i] for r in runs]
        assert all((x["flow"], x["victims"]) == (row["flow"], row["victims"]) for x in rows)
        t = [x["median_s"] for x in rows if x["median_s"] is not None]
        fl = [x["stats"].get("flow") for x in rows]
        core = [x["stats"].get("steals_succeeded", 0) for x in rows]
        bad = [x for x in rows if not x["verified"]]
        time = (f"{statistics.median(t):.3f} ({min(t):.3f} – {max(t):.3f})" if t else "-") + (
            f" ({len(bad)} not verified)" if bad else "")
        if fl[0] is not None:
            s = [f["steals"] for f in fl]
            ts = [f["tasks_stolen"] for f in fl]
            steals = f"{', '.join(map(str, s))} | {statistics.median(s):g} | " + (
                "same as steals | -" if s == ts else f"{', '.join(map(str, ts))} | {statistics.median(ts):g}")
        else:
            steals = "- | - | - | -"
        print(f"| {row['flow']} | {row['victims']} | {time} | {steals} | {statistics.median(core):g} |")


def mib(b):
    return f"{b / 2**20:.1f}"


steals_table("cholesky-flow", "cholesky 4096x256 --flow")
steals_table("sw-flow", "smith-waterman 30000x256 --flow")


def reps5_table(name, title):
    rows = load(name)
    if not rows:
        return
    print(f"\n| {title} | victims | median s (min – max), --reps 5 | spread % |")
    print("|---|---|---|---|")
    for r in rows:
        t = f"{r['median_s']:.3f} ({r['min_s']:.3f} – {r['max_s']:.3f})" if r["median_s"] else "-"
        sp = (r["max_s"] - r["min_s"]) / r["median_s"] * 100 if r["median_s"] else 0
        print(f"| {r['flow']} | {r['victims']} | {t}{'' if r['verified'] else ' FAILED'} | {sp:.0f} |")


reps5_table("cholesky-flow.json", "cholesky 4096x256 --flow")
reps5_table("sw-flow.json", "smith-waterman 30000x256 --flow")


def locality_pair_table(prefix, title):
    """Both locality runs side by side: 'run 1 / run 2' in each cell."""
    runs = [load(f"{prefix}-{i}.json") for i in (1, 2)]
    if not all(runs):
        return
    print(f"\n| {title} | victims | same core MiB | same L3 MiB | remote MiB "
          f"| modelled L3 misses (k) | retrieval cost (MiB × distance) | flow steals | tasks stolen |")
    print("|---|---|---|---|---|---|---|---|---|")

    def cells(r):
        st = r["stats"]
        loc, fl = st["locality"], st["flow"]
        b = loc["bytes"]
        return [mib(b["same_core"]), mib(b["same_l3"]), mib(b["remote"]),
                f"{sum(loc['l3_misses']) / 1000:.0f}", mib(fl["cost_at_run"]), str(fl["steals"]),
                str(fl["tasks_stolen"])]

    for a, b in zip(*runs):
        assert (a["flow"], a["victims"]) == (b["flow"], b["victims"])
        if a["flow"] == "off":
            continue
        pair = [f"{x} / {y}" for x, y in zip(cells(a), cells(b))]
        print(f"| {a['flow']} | {a['victims']} | " + " | ".join(pair) + " |")


locality_pair_table("cholesky-2048-locality-w8", "cholesky 2048x256, W=8, --flow")
locality_pair_table("sw-30000-locality-w8", "smith-waterman 30000x256, W=8, --flow")
