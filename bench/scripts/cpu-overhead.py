#!/usr/bin/env python3
"""What a locality scheduler costs a CPU-bound program (LAWS issue 18, CAB issue 19 Figure 9).

Two measurements of locus-bench's locus versions, each scheduler against the first (the
baseline, slaw by default), printed as markdown tables:

  * instructions: one locus-bench child (--child --result-fd 1, the kernel run in-process,
    setup and verification included) under `valgrind --tool=callgrind` at 1 worker; callgrind's
    total Ir, and the difference to the baseline. Repeatable on a shared machine;
  * time: paired, interleaved rounds (round r runs every scheduler once, in turn, with
    --reps 1) at each worker count on a virtual topology (default sockets=2,cores=1), the
    median of each scheduler's times and the median and range of the per-round ratios to the
    baseline. Noisy on a shared machine: the range says how much.

A scheduler is NAME or NAME:OPTIONS (OPTIONS go to LOCUS_<NAME>, as in locality-tables.py).

  bench/scripts/cpu-overhead.py --schedulers slaw,laws --run fib=27 --run nqueens=10:nocutoff \\
      --run cholesky=512x64 --rounds 7
"""

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--bench", default=None, help="locus-bench [build/release/bin/locus-bench]")
    p.add_argument("--schedulers", default="slaw,laws", help="first is the baseline [slaw,laws]")
    p.add_argument("--run", action="append", default=None, metavar="KERNEL=SIZE",
                   help="repeatable [fib=27 nqueens=10:nocutoff cholesky=512x64]")
    p.add_argument("--topology", default="sockets=2,cores=1", help="for the timed rounds")
    p.add_argument("--workers", default="1,2", help="worker counts of the timed rounds [1,2]")
    p.add_argument("--rounds", type=int, default=7, help="paired rounds per worker count [7]")
    p.add_argument("--no-callgrind", action="store_true", help="skip the instruction counts")
    p.add_argument("--no-time", action="store_true", help="skip the timed rounds")
    return p.parse_args(argv)


def variant(spec):
    name, _, opts = spec.partition(":")
    return name, ({"LOCUS_" + name.upper(): opts} if opts else {}), spec


def env_for(spec, extra=None):
    name, env_extra, _ = variant(spec)
    env = dict(os.environ)
    env.update({"LOCUS_SCHEDULER": name, "LOCUS_PIN": "0"})
    env.update(env_extra)
    env.update(extra or {})
    return env


def instructions(bench, kernel, size, spec):
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "cg.out")
        cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out, bench, kernel,
               "--size", size, "--runtime", "locus", "--workers", "1", "--reps", "1", "--child",
               "--result-fd", "1"]
        p = subprocess.run(cmd, env=env_for(spec), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True)
        report = json.loads(p.stdout.strip().splitlines()[-1])
        if not report.get("ok") or not report.get("verified"):
            raise RuntimeError("%s %s under %s: %s" % (kernel, size, spec, p.stdout[-500:]))
        with open(out) as f:
            for line in f:
                m = re.match(r"summary:\s+(\d+)", line) or re.match(r"totals:\s+(\d+)", line)
                if m:
                    return int(m.group(1))
    raise RuntimeError("no callgrind total for %s %s %s" % (kernel, size, spec))


def timed(bench, kernel, size, spec, workers, topology):
    cmd = [bench, kernel, "--size", size, "--runtime", "locus", "--workers", str(workers),
           "--reps", "1", "--child", "--result-fd", "1"]
    p = subprocess.run(cmd, env=env_for(spec, {"LOCUS_TOPOLOGY": topology}),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    report = json.loads(p.stdout.strip().splitlines()[-1])
    if not report.get("ok") or not report.get("verified"):
        raise RuntimeError("%s %s under %s: %s" % (kernel, size, spec, p.stdout[-500:]))
    return report["seconds"]


def main(argv):
    args = parse_args(argv)
    here = os.path.dirname(os.path.abspath(__file__))
    bench = args.bench or os.path.join(here, "..", "..", "build", "release", "bin", "locus-bench")
    specs = args.schedulers.split(",")
    runs = [r.partition("=")[::2] for r in
            (args.run or ["fib=27", "nqueens=10:nocutoff", "cholesky=512x64"])]
    base = specs[0]
    if not args.no_callgrind:
        print("Instructions (callgrind Ir, one locus-bench child at 1 worker, setup and check "
              "included):\n")
        print("| kernel | " + " | ".join(specs) + " |")
        print("|---|" + "---|" * len(specs))
        for kernel, size in runs:
            ir = {s: instructions(bench, kernel, size, s) for s in specs}
            cells = ["{:,}".format(ir[base])]
            for s in specs[1:]:
                cells.append("{:,} ({:+.2f}%)".format(ir[s], 100.0 * (ir[s] - ir[base]) / ir[base]))
            print("| %s %s | %s |" % (kernel, size, " | ".join(cells)), flush=True)
        print()
    if not args.no_time:
        print("Time (paired interleaved rounds on `%s`, %d rounds; medians of the kernel's timed "
              "region; ratio: median and range of the per-round ratios to %s):\n"
              % (args.topology, args.rounds, base))
        print("| kernel | workers | " + " | ".join(specs) + " |")
        print("|---|---|" + "---|" * len(specs))
        for kernel, size in runs:
            for w in [int(x) for x in args.workers.split(",")]:
                t = {s: [] for s in specs}
                for _ in range(args.rounds):
                    for s in specs:
                        t[s].append(timed(bench, kernel, size, s, w, args.topology))
                cells = ["%.4f s" % statistics.median(t[base])]
                for s in specs[1:]:
                    ratios = [a / b for a, b in zip(t[s], t[base])]
                    cells.append("%.4f s (x%.3f, %.3f-%.3f)" % (
                        statistics.median(t[s]), statistics.median(ratios), min(ratios),
                        max(ratios)))
                print("| %s %s | %d | %s |" % (kernel, size, w, " | ".join(cells)), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
