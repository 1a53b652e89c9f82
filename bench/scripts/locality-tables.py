#!/usr/bin/env python3
"""Modelled locality tables for LAWS (issue 18) and CAB (issue 19), from locus-bench's JSON.

Runs locus-bench with --accounting on a virtual topology (default the papers' machine,
sockets=4,cores=4,l3=6MiB,l2=512KiB: 16 workers, oversubscribed on whatever cores exist) for
every kernel and scheduler asked, keeps each run's JSON, and prints markdown tables:

  * per kernel, the whole timed run: time, modelled private-level and L3 misses (and of them
    remote: served by another socket's memory), local share, the share of bytes each socket's
    workers touched, and the straggler socket's L3 misses split by the home's distance
    (LAWS's Table 2: "local memory accesses" are the straggler's L3 misses served by its own
    socket's memory in the model);
  * per kernel that ran through locus::iterate (stats.iterations), per iteration: stage, CF
    level, L3 misses (remote), private misses, local share, the largest socket's share of bytes;
    and the iterations after the first summed, with the L3 ratio to the baseline scheduler
    (LAWS's targets are about iterations 2 and later).

A scheduler is NAME or NAME:OPTIONS; OPTIONS go to the environment variable LOCUS_<NAME>
(cab:bl=3 runs --scheduler cab with LOCUS_CAB=bl=3), so a sweep is a list of variants.

Everything is MODELLED (docs/design/0007-locality-accounting.md): fully associative LRU caches
unless the topology says l3ways=, homes by first touch, no prefetching, no coherence traffic,
and the workers' interleaving is the host's, not 16 cores'. Only python3's standard library.

  bench/scripts/locality-tables.py --out docs/benchmarks-data/2026-11-26/laws \\
      --schedulers cilk,laws --run heat=1024x1024x5 --run sor=1024x10
  bench/scripts/locality-tables.py --from docs/benchmarks-data/2026-11-26/laws   # tables only
"""

import argparse
import glob
import json
import os
import subprocess
import sys
import time

DEFAULT_TOPOLOGY = "sockets=4,cores=4,l3=6MiB,l2=512KiB"
# Sizes whose per-socket part fits one socket's 6 MiB L3 (the "heat 1024x1024"); each
# run takes seconds with accounting on (docs/benchmarks-laws.md has the paper's sizes too).
DEFAULT_RUNS = ["heat=1024x1024x10", "heat-ir=1024x1024x10", "sor=1024x5", "sor-ir=1024x5",
                "ge=1024", "stencil9=1024x1024x10", "stencil3d6=256x64x64x10",
                "stencil3d25=256x64x64x10", "cilksort=1000000"]
LOCAL = ("same_core", "same_l3", "same_numa", "same_socket")


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--bench", default=None,
                   help="locus-bench binary [build/release/bin/locus-bench of this tree]")
    p.add_argument("--topology", default=DEFAULT_TOPOLOGY, help="--topology for every run")
    p.add_argument("--workers", type=int, default=16, help="workers per run [16]")
    p.add_argument("--reps", type=int, default=1, help="repetitions per run [1]")
    p.add_argument("--schedulers", default="cilk,slaw,laws",
                   help="comma-separated NAME or NAME:OPTIONS; the first is the baseline "
                        "[cilk,slaw,laws]")
    p.add_argument("--run", action="append", default=None, metavar="KERNEL=SIZE",
                   help="a kernel and its size (repeatable) [%s]" % " ".join(DEFAULT_RUNS))
    p.add_argument("--out", default=None, help="keep each run's JSON here")
    p.add_argument("--from", dest="source", default=None,
                   help="make the tables from the JSON files in this folder; run nothing")
    p.add_argument("--timeout", type=float, default=600, help="seconds per run [600]")
    p.add_argument("--all-iterations", action="store_true",
                   help="every iteration in the per-iteration tables (else the first three "
                        "and the rest summed when there are more than ten)")
    return p.parse_args(argv)


def variant(spec):
    """(scheduler name, environment overrides, label) of NAME or NAME:OPTIONS."""
    name, _, opts = spec.partition(":")
    env = {"LOCUS_" + name.upper(): opts} if opts else {}
    return name, env, spec


def file_name(kernel, size, label):
    safe = "".join(c if c.isalnum() or c in "-_." else "-" for c in label)
    return "%s-%s-%s.json" % (kernel, size, safe)


def run_one(args, bench, kernel, size, spec, out_dir):
    name, env_extra, label = variant(spec)
    path = os.path.join(out_dir, file_name(kernel, size, label))
    cmd = [bench, kernel, "--size", size, "--runtime", "locus", "--workers", str(args.workers),
           "--reps", str(args.reps), "--topology", args.topology, "--scheduler", name,
           "--accounting", "--timeout", str(int(args.timeout)), "--json", path]
    env = dict(os.environ)
    env.update(env_extra)
    shown = " ".join("%s=%s" % kv for kv in env_extra.items())
    print("# %s%s" % (shown + " " if shown else "", " ".join(cmd)), file=sys.stderr)
    t0 = time.monotonic()
    proc = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, timeout=args.timeout * (args.reps + 1) + 60)
    wall = time.monotonic() - t0
    if proc.returncode != 0 or not os.path.exists(path):
        raise RuntimeError("%s failed (exit %d): %s" % (" ".join(cmd), proc.returncode,
                                                       proc.stderr.strip()[-2000:]))
    with open(path) as f:
        doc = json.load(f)
    doc["label"] = label
    doc["env"] = env_extra
    doc["topology"] = args.topology
    doc["wall_s"] = wall
    with open(path, "w") as f:
        json.dump(doc, f)
        f.write("\n")
    print("#   %.1f s" % wall, file=sys.stderr)
    return doc


def load(source):
    docs = []
    for path in sorted(glob.glob(os.path.join(source, "*.json"))):
        with open(path) as f:
            doc = json.load(f)
        if "results" not in doc:
            continue
        doc.setdefault("label", doc["results"][0]["stats"].get("iterations", [{}])[0]
                       .get("scheduler", os.path.basename(path)))
        docs.append(doc)
    return docs


def total(d):
    return sum(v for v in d.values())


def local_of(d):
    return sum(d.get(k, 0) for k in LOCAL)


def pct(x):
    return "-" if x is None else "%.1f%%" % (100.0 * x)


def num(x):
    return "-" if x is None else "{:,}".format(int(x))


class run:
    """One run's result, read from its JSON."""

    def __init__(self, doc):
        res = doc["results"][0]
        self.label = doc["label"]
        self.kernel, self.size = res["kernel"], res["size"]
        self.verified = res["verified"]
        self.workers = res["workers"]
        cmd = doc.get("command", "").split()
        self.topology = doc.get("topology") or (
            cmd[cmd.index("--topology") + 1] if "--topology" in cmd else "?")
        self.median_s = res["median_s"]
        st = res.get("stats") or {}
        self.loc = st.get("locality")
        if self.loc is None:
            raise RuntimeError("%s %s %s: no stats.locality (run without --accounting?)"
                               % (self.kernel, self.size, self.label))
        self.iterations = st.get("iterations", [])

    def l3(self):
        return self.loc["l3"]["misses"], self.loc["l3"]["misses_by_distance"]["remote"]

    def private(self):
        return self.loc["private"]["misses"]

    def socket_shares(self):
        b = [total(s["bytes"]) for s in self.loc["per_socket"]]
        t = sum(b)
        return [x / t if t else 0.0 for x in b]

    def straggler(self):
        """The model's straggler (most remote bytes) or, with nothing remote, the socket with
        most L3 misses: (socket, its L3 misses served locally, remotely)."""
        per = self.loc["per_socket"]
        s = self.loc.get("straggler_socket", -1)
        if s is None or s < 0:
            s = max(range(len(per)), key=lambda i: per[i]["l3"]["misses"])
        by = per[s]["l3"]["misses_by_distance"]
        return s, local_of(by), by.get("remote", 0)


def whole_run_table(runs):
    out = ["| scheduler | time (s) | private misses | L3 misses | of which remote | local share "
           "| bytes per socket | straggler: L3 misses local / remote | verified |",
           "|---|---|---|---|---|---|---|---|---|"]
    for r in runs:
        l3, remote = r.l3()
        s, sl, sr = r.straggler()
        shares = " / ".join("%.1f" % (100 * x) for x in r.socket_shares())
        out.append("| %s | %s | %s | %s | %s | %s | %s%% | s%d: %s / %s | %s |" % (
            r.label, "-" if r.median_s is None else "%.3f" % r.median_s, num(r.private()),
            num(l3), num(remote), pct(r.loc.get("local_share")), shares, s, num(sl), num(sr),
            "yes" if r.verified else "NO"))
    return out


def iteration_row(label, name, recs):
    l3 = sum(x.get("l3_misses", 0) for x in recs)
    rem = sum(x.get("l3_remote_misses", 0) for x in recs)
    priv = sum(x.get("private_misses", 0) for x in recs)
    byts = sum(x.get("bytes", 0) for x in recs)
    placed_local = sum((x.get("local_share") or 0) * x.get("bytes", 0) for x in recs)
    per = [0] * max((len(x.get("bytes_per_socket", [])) for x in recs), default=0)
    for x in recs:
        for i, b in enumerate(x.get("bytes_per_socket", [])):
            per[i] += b
    largest = max(per) / sum(per) if per and sum(per) else None
    stages = sorted({x.get("stage", "") for x in recs} - {""})
    levels = sorted({x.get("cf_level", -1) for x in recs} - {-1})
    return "| %s | %s | %s | %s | %s (%s) | %s | %s | %s |" % (
        label, name, "/".join(stages) or "-", ",".join(map(str, levels)) or "-", num(l3),
        num(rem), num(priv), pct(placed_local / byts if byts else None), pct(largest))


def iteration_tables(runs, all_iterations):
    out = ["| scheduler | iteration | stage | CF level | L3 misses (remote) | private misses "
           "| local share | largest socket |", "|---|---|---|---|---|---|---|---|"]
    for r in runs:
        it = r.iterations
        if all_iterations or len(it) <= 10:
            rows = [(str(x["index"]), [x]) for x in it]
        else:
            rows = [(str(x["index"]), [x]) for x in it[:3]]
            rows.append(("%d-%d (sum)" % (it[3]["index"], it[-1]["index"]), it[3:]))
        for name, recs in rows:
            out.append(iteration_row(r.label, name, recs))
    return out


def later_sums(r):
    """Iterations after the first (index >= 1): L3 misses, local share (weighted by bytes),
    the smallest and largest socket share of bytes; None without records."""
    later = [x for x in r.iterations if x["index"] >= 1]
    if not later:
        return None
    l3 = sum(x.get("l3_misses", 0) for x in later)
    byts = sum(x.get("bytes", 0) for x in later)
    loc = sum((x.get("local_share") or 0) * x.get("bytes", 0) for x in later)
    per = [0] * max(len(x.get("bytes_per_socket", [])) for x in later)
    for x in later:
        for i, b in enumerate(x.get("bytes_per_socket", [])):
            per[i] += b
    t = sum(per)
    return l3, (loc / byts if byts else None), (min(per) / t if t else None), \
        (max(per) / t if t else None)


def summary_table(groups):
    """One row per kernel and scheduler, LAWS's Table 2 in the model: the whole run's L3 misses
    and the straggler's split by the home's distance (local: its own socket's memory, the
    paper's "local memory accesses"), then the iterations after the first against the
    baseline (the first scheduler of the kernel)."""
    out = ["| kernel | scheduler | L3 misses | straggler: L3 misses local / remote | local share "
           "| L3 misses after iteration 0 (vs first) | local share after 0 | socket shares "
           "after 0 |", "|---|---|---|---|---|---|---|---|"]
    for (kernel, size), runs in groups.items():
        base = None
        for r in runs:
            l3, _ = r.l3()
            s, sl, sr = r.straggler()
            later = later_sums(r)
            if later is not None and base is None:
                base = later[0]
            ratio = "-"
            if later is not None:
                ratio = "%s (%s)" % (num(later[0]), "%.1f%%" % (100.0 * later[0] / base)
                                     if base else "-")
            out.append("| %s %s | %s | %s | s%d: %s / %s | %s | %s | %s | %s |" % (
                kernel, size, r.label, num(l3), s, num(sl), num(sr),
                pct(r.loc.get("local_share")), ratio,
                pct(later[1]) if later else "-",
                "%s-%s" % (pct(later[2]), pct(later[3])) if later else "-"))
    return out


def sweep_table(groups, baseline):
    """LAWS's Figures 9-11 in the model: per kernel, one row per size (by its first extent,
    the paper's x) with each scheduler's time, and the straggler socket's L3 misses and local
    memory accesses (its L3 misses served by its own socket's memory) with their ratio to the
    baseline's. Only kernels run at two sizes or more."""
    by_kernel = {}
    for (kernel, size), runs in groups.items():
        by_kernel.setdefault(kernel, []).append((size, runs))
    out = []
    for kernel, sizes in by_kernel.items():
        if len(sizes) < 2:
            continue
        sizes.sort(key=lambda sr: int(sr[0].split("x")[0]))
        out += ["#### %s: the working-set sweep (Figures 9-11)\n" % kernel,
                "| x | scheduler | time (s) | straggler L3 misses | vs %s | straggler local "
                "accesses | vs %s |" % (baseline, baseline), "|---|---|---|---|---|---|---|"]
        for size, runs in sizes:
            base = next((r for r in runs if r.label == baseline), None)
            bl = base.straggler() if base else None
            for r in runs:
                s, sl, sr = r.straggler()
                miss = r.loc["per_socket"][s]["l3"]["misses"]
                bmiss = base.loc["per_socket"][bl[0]]["l3"]["misses"] if base else None
                out.append("| %s | %s | %s | %s | %s | %s | %s |" % (
                    size.split("x")[0], r.label,
                    "-" if r.median_s is None else "%.3f" % r.median_s, num(miss),
                    "%.2f" % (miss / bmiss) if bmiss else "-", num(sl),
                    "%.2f" % (sl / bl[1]) if bl and bl[1] else "-"))
        out.append("")
    return out


def print_tables(docs, args, out=sys.stdout):
    groups = {}
    for d in docs:
        r = run(d)
        groups.setdefault((r.kernel, r.size), []).append(r)
    order = [variant(s)[2] for s in args.schedulers.split(",")]
    rank = {label: i for i, label in enumerate(order)}
    nproc = os.cpu_count()
    for runs in groups.values():
        runs.sort(key=lambda r: rank.get(r.label, len(rank)))
    first = next(iter(groups.values()))[0]
    print("## Summary\n\nMODELLED (locality accounting) on the virtual `%s`, %d workers on a "
          "%s-core host.\n" % (first.topology, first.workers, nproc), file=out)
    print("\n".join(summary_table(groups)) + "\n", file=out)
    sweep = sweep_table(groups, order[0] if order else "")
    if sweep:
        print("\n".join(sweep), file=out)
    for (kernel, size), runs in groups.items():
        print("### %s %s\n" % (kernel, size), file=out)
        print("MODELLED (locality accounting) on the virtual `%s`, %d workers on a %s-core host."
              "\n" % (runs[0].topology, runs[0].workers, nproc), file=out)
        print("\n".join(whole_run_table(runs)), file=out)
        if any(r.iterations for r in runs):
            print("\nPer iteration (locus::iterate's records):\n", file=out)
            print("\n".join(iteration_tables(runs, args.all_iterations)), file=out)
        print("", file=out)


def main(argv):
    args = parse_args(argv)
    if args.source:
        docs = load(args.source)
        if not docs:
            sys.exit("locality-tables: no locus-bench JSON in %s" % args.source)
        print_tables(docs, args)
        return
    here = os.path.dirname(os.path.abspath(__file__))
    bench = args.bench or os.path.join(here, "..", "..", "build", "release", "bin", "locus-bench")
    if not os.access(bench, os.X_OK):
        sys.exit("locality-tables: no locus-bench at %s (build it or pass --bench)" % bench)
    out_dir = args.out or os.path.join("/tmp", "locality-tables-%d" % os.getpid())
    os.makedirs(out_dir, exist_ok=True)
    docs = []
    for item in args.run or DEFAULT_RUNS:
        kernel, _, size = item.partition("=")
        if not size:
            sys.exit("locality-tables: --run expects KERNEL=SIZE, got '%s'" % item)
        for spec in args.schedulers.split(","):
            docs.append(run_one(args, bench, kernel, size, spec, out_dir))
    print("<!-- raw JSON: %s -->\n" % out_dir)
    print_tables(docs, args)


if __name__ == "__main__":
    main(sys.argv[1:])
