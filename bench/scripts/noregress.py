#!/usr/bin/env python3
"""No-regression check between two locus-bench builds (issue 20: "no regression beyond noise
on the loop kernels, PDFS, the dataflow kernels and the replay modes").

  bench/scripts/noregress.py OLD NEW [--only GROUP,...] [--threshold 2] [--out DIR]
                             [--time-rounds R] [--time-workers 2] [--new-env K=V ...]

OLD and NEW are each a locus-bench binary, a build folder holding bin/locus-bench, or a source
tree holding build/release/bin/locus-bench.

Instructions. Every case (a kernel, its size, and the schedule or dataflow options it runs
under) runs once per build as one locus-bench child (--child --result-fd 1: the kernel in
process, setup and verification included) under `valgrind --tool=callgrind` at 1 worker, and
the table gives callgrind's total Ir of OLD and NEW and their ratio. Between two runs of the
same binary the total moves by a few tenths of a percent at most (the idle waits; the replay
modes move most), so the ratio is exact enough for a 2% threshold on a shared machine where
times are noise. The serial version of
each kernel runs under callgrind too (once per kernel, size and build): `above serial` is the
locus version's Ir minus that build's serial Ir: the runtime's start and stop, spawns, syncs,
replay and graph bookkeeping, plus whatever setup or check the locus version does that the
serial one does not (heat's, say, computes the serial answer to check against). Its ratio
shows a runtime change that the kernel's own arithmetic dilutes in the total.
A case whose total is more than --threshold percent above OLD's is a finding: it is marked
WORSE and the exit status is 1 (2 when a run failed or did not verify).

Time (optional, --time-rounds R > 0). Interleaved rounds at --time-workers workers: each round
runs every selected case once on OLD, then once on NEW (--reps 1, the kernel's timed region
only, at the case's time size), and the table gives the medians, the median of the per-round
ratios NEW/OLD and their range. On a shared machine this is noise; say so where it is quoted.

The runs ignore the caller's LOCUS_* variables (each build's defaults are compared; the loop
schedule runs a fixed 3 iterations, LOCUS_BENCH_LOOP_FIXED=3, not until a clock says stop), except
those that --old-env / --new-env set for one build (e.g. --new-env LOCUS_ACCOUNTING=1, which
the script's own test uses to make NEW costlier on purpose).
"""

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

# (group, kernel, callgrind size, time size, schedule, flow). Sizes are the kernels' small ones
# (callgrind finishes each in seconds); time sizes are a few tenths of a second at 1 worker on
# the developers' VM. Groups follow issue 20's list; fork-join covers the remaining kernels
# that the hot-path checks (fib, nqueens, uts) do not.
CASES = [
    ("loop", "matmul", "128", "512", "random", "off"),
    ("loop", "heat", "256x256x10", "2048x1024x20", "random", "off"),
    ("loop", "sor", "256x10", "1000x100", "random", "off"),
    ("loop", "fdtd", "60x80x40", "400x400x100", "random", "off"),
    ("loop", "scan", "100000", "8388608", "random", "off"),
    ("loop", "memcpy", "8MiB", "64MiBx8", "random", "off"),
    ("loop", "cg", "S", "S", "random", "off"),
    ("loop", "stencil9", "130x64x4", "2048x1024x10", "random", "off"),
    ("loop", "stencil3d6", "40x12x12x4", "2048x64x64x5", "random", "off"),
    ("loop", "stencil3d25", "40x12x12x3", "1024x64x64x3", "random", "off"),
    ("loop", "heat-ir", "130x64x4", "2048x1024x10", "random", "off"),
    ("loop", "sor-ir", "130x4", "1000x20", "random", "off"),
    ("fork-join", "fj", "1024", "1024", "random", "off"),
    ("fork-join", "fj-rec", "1024", "1024", "random", "off"),
    ("fork-join", "cilksort", "100000", "1000000", "random", "off"),
    ("fork-join", "lu", "128", "512", "random", "off"),
    ("fork-join", "floyd", "128", "512", "random", "off"),
    ("fork-join", "ge", "96", "512", "random", "off"),
    ("pdfs", "pdfs", "100x100", "1000x1000", "random", "off"),
    ("pdfs", "pdfs", "300x300", "1000x1000", "random", "off"),
    ("dataflow", "cholesky", "256x64", "1024x128", "random", "off"),
    ("dataflow", "cholesky", "256x64", "1024x128", "random", "one"),
    ("dataflow", "cholesky", "256x64", "1024x128", "random", "half-pessimistic+priority"),
    ("dataflow", "cholesky", "256x64", "1024x128", "random", "half-optimistic+near-data"),
    ("dataflow", "smith-waterman", "2000x128", "10000x256", "random", "off"),
    ("dataflow", "smith-waterman", "2000x128", "10000x256", "random", "one"),
    ("dataflow", "smith-waterman", "2000x128", "10000x256", "random",
     "half-pessimistic+priority"),
    ("dataflow", "smith-waterman", "2000x128", "10000x256", "random",
     "half-optimistic+near-data"),
] + [("replay", k, s, t, m, "off")
     for k, s, t in [("heat", "256x256x10", "2048x1024x20"), ("scan", "100000", "8388608"),
                     ("memcpy", "8MiB", "64MiBx8"), ("floyd", "128", "512")]
     for m in ["stows", "stuws", "relws"]] + [
    ("replay", "heat", "256x256x10", "2048x1024x20", m, "off")
    for m in ["loop", "designed", "traced"]]

GROUPS = sorted({c[0] for c in CASES})
LOOP_ITERATIONS = 3  # --schedule loop runs exactly this many (LOCUS_BENCH_LOOP_FIXED)


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("old", help="the baseline: locus-bench, a build folder or a source tree")
    p.add_argument("new", help="the build checked against it, in the same forms")
    p.add_argument("--only", default=",".join(GROUPS),
                   help="comma list of groups (%s) or kernel names [all]" % ", ".join(GROUPS))
    p.add_argument("--run", action="append", default=None, metavar="KERNEL=SIZE",
                   help="instead of the table: this kernel at this size, random schedule, flow "
                        "off (repeatable)")
    p.add_argument("--threshold", type=float, default=2.0,
                   help="percent of OLD's Ir above which a case is a finding [2]")
    p.add_argument("--out", default=None, help="write noregress-ir.json / -time.json here")
    p.add_argument("--no-callgrind", action="store_true", help="skip the instruction counts")
    p.add_argument("--time-rounds", type=int, default=0, help="interleaved timed rounds [0]")
    p.add_argument("--time-workers", type=int, default=2, help="workers of the timed rounds [2]")
    p.add_argument("--old-env", action="append", default=[], metavar="K=V",
                   help="an environment variable for OLD's runs only (repeatable)")
    p.add_argument("--new-env", action="append", default=[], metavar="K=V",
                   help="an environment variable for NEW's runs only (repeatable)")
    return p.parse_args(argv)


def find_bench(path):
    for candidate in (path, os.path.join(path, "bin", "locus-bench"),
                      os.path.join(path, "build", "release", "bin", "locus-bench")):
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return os.path.abspath(candidate)
    sys.exit("noregress: no locus-bench at or under '%s' (tried PATH, PATH/bin/locus-bench, "
             "PATH/build/release/bin/locus-bench)" % path)


def environment(extra):
    env = {k: v for k, v in os.environ.items() if not k.startswith("LOCUS_")}
    for item in extra:
        key, eq, value = item.partition("=")
        if not eq or not key:
            sys.exit("noregress: '%s' is not K=V" % item)
        env[key] = value
    return env


class RunFailed(Exception):
    pass


def child_command(bench, case, runtime, workers, size):
    _, kernel, _, _, schedule, flow = case
    cmd = [bench, kernel, "--size", size, "--runtime", runtime, "--workers", str(workers),
           "--reps", "1", "--child", "--result-fd", "1"]
    if runtime == "locus":
        cmd += ["--policy", "adaptive", "--victims", "hierarchical", "--schedule", schedule,
                "--flow", flow]
    return cmd


def report_of(proc, what):
    lines = proc.stdout.strip().splitlines()
    try:
        report = json.loads(lines[-1])
    except (IndexError, ValueError):
        raise RunFailed("%s: no report (exit %d): %s" % (what, proc.returncode,
                                                         proc.stderr.strip()[-400:]))
    if not report.get("ok") or not report.get("verified"):
        raise RunFailed("%s: %s" % (what, report.get("error") or report.get("detail")))
    return report


def case_env(case, env):
    # The loop schedule stops when an iteration improves time by less than 2%: a clock decides
    # how many it runs. A fixed count makes its instructions repeat.
    if case[4] == "loop":
        env = dict(env, LOCUS_BENCH_LOOP_FIXED=str(LOOP_ITERATIONS))
    return env


def instructions(bench, case, runtime, env):
    env = case_env(case, env)
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "callgrind.out")
        cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out]
        cmd += child_command(bench, case, runtime, 1, case[2])
        proc = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True)
        report = report_of(proc, " ".join(cmd[3:]))
        with open(out) as f:
            for line in f:
                m = re.match(r"(?:summary|totals):\s+(\d+)", line)
                if m:
                    return int(m.group(1)), report
    raise RunFailed("no callgrind total for " + " ".join(cmd))


def seconds(bench, case, env, workers):
    cmd = child_command(bench, case, "locus", workers, case[3])
    proc = subprocess.run(cmd, env=case_env(case, env), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True)
    return report_of(proc, " ".join(cmd))["seconds"]


def label(case):
    _, kernel, size, _, schedule, flow = case
    extra = "" if schedule == "random" else " --schedule " + schedule
    extra += "" if flow == "off" else " --flow " + flow
    return "%s %s%s" % (kernel, size, extra)


def ratio_cell(new, old):
    return "%.4f" % (new / old) if old > 0 else "n/a"


def check_instructions(args, benches, envs, cases):
    print("Instructions: callgrind total Ir of one locus-bench child at 1 worker (setup and "
          "verification included); above serial = locus Ir - the serial version's Ir, each "
          "build's own. WORSE: new/old > %.3f.\n" % (1 + args.threshold / 100))
    print("| group | case | old Ir | new Ir | new/old | above serial old | new | new/old | |")
    print("|---|---|---|---|---|---|---|---|---|")
    rows, serial, worse = [], {}, []
    for case in cases:
        ir = {}
        for side in ("old", "new"):
            ir[side], report = instructions(benches[side], case, "locus", envs[side])
            ir[side + "_spawns"] = sum(report.get("stats", {}).get(k, 0)
                                       for k in ("spawns_work_first", "spawns_help_first"))
        for side in ("old", "new"):
            key = (side, case[1], case[2])
            if key not in serial:
                serial[key] = instructions(benches[side], case, "serial", envs[side])[0]
        above = {s: ir[s] - serial[(s, case[1], case[2])] for s in ("old", "new")}
        bad = ir["new"] > ir["old"] * (1 + args.threshold / 100)
        if bad:
            worse.append(label(case))
        print("| %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            case[0], label(case), "{:,}".format(ir["old"]), "{:,}".format(ir["new"]),
            ratio_cell(ir["new"], ir["old"]), "{:,}".format(above["old"]),
            "{:,}".format(above["new"]), ratio_cell(above["new"], above["old"]),
            "**WORSE**" if bad else ""), flush=True)
        rows.append({"group": case[0], "kernel": case[1], "size": case[2],
                     "schedule": case[4], "flow": case[5],
                     "old_serial_ir": serial[("old", case[1], case[2])],
                     "new_serial_ir": serial[("new", case[1], case[2])],
                     "old_ir": ir["old"], "new_ir": ir["new"], "old_spawns": ir["old_spawns"],
                     "new_spawns": ir["new_spawns"], "worse": bad})
    print()
    return rows, worse


def check_time(args, benches, envs, cases):
    w = args.time_workers
    # Cases that differ only in their callgrind size (pdfs) are one timed configuration.
    seen, unique = set(), []
    for c in cases:
        if (c[1], c[3], c[4], c[5]) not in seen:
            seen.add((c[1], c[3], c[4], c[5]))
            unique.append(c)
    cases = unique
    print("Time: %d interleaved rounds at %d workers (each round: every case on OLD, then on "
          "NEW; --reps 1, the timed region); medians, and the median and range of the per-round "
          "ratios new/old.\n" % (args.time_rounds, w))
    print("| group | case (time size) | old s | new s | new/old median | range |")
    print("|---|---|---|---|---|---|")
    t = {(c, s): [] for c in range(len(cases)) for s in ("old", "new")}
    for _ in range(args.time_rounds):
        for i, case in enumerate(cases):
            for side in ("old", "new"):
                t[(i, side)].append(seconds(benches[side], case, envs[side], w))
    rows = []
    for i, case in enumerate(cases):
        old, new = t[(i, "old")], t[(i, "new")]
        ratios = [b / a for a, b in zip(old, new) if a > 0]
        print("| %s | %s (%s) | %.4f | %.4f | %.3f | %.3f-%.3f |" % (
            case[0], label(case), case[3], statistics.median(old), statistics.median(new),
            statistics.median(ratios), min(ratios), max(ratios)), flush=True)
        rows.append({"group": case[0], "kernel": case[1], "size": case[3], "schedule": case[4],
                     "flow": case[5], "workers": w, "old_s": old, "new_s": new})
    print()
    return rows


def main(argv):
    args = parse_args(argv)
    benches = {"old": find_bench(args.old), "new": find_bench(args.new)}
    envs = {"old": environment(args.old_env), "new": environment(args.new_env)}
    wanted = set(args.only.split(","))
    known = set(GROUPS) | {c[1] for c in CASES}
    if not wanted <= known:
        sys.exit("noregress: --only: unknown %s; expected groups %s or kernel names" % (
            ", ".join(sorted(wanted - known)), ", ".join(GROUPS)))
    cases = [c for c in CASES if c[0] in wanted or c[1] in wanted]
    if args.run:
        cases = []
        for run in args.run:
            kernel, eq, size = run.partition("=")
            if not eq or not kernel or not size:
                sys.exit("noregress: --run '%s' is not KERNEL=SIZE" % run)
            cases.append(("run", kernel, size, size, "random", "off"))
    print("old: %s\nnew: %s\n" % (benches["old"], benches["new"]))
    status = 0
    try:
        if not args.no_callgrind:
            rows, worse = check_instructions(args, benches, envs, cases)
            if worse:
                print("WORSE than %.1f%% in instructions: %s" % (args.threshold, "; ".join(worse)))
                status = 1
            else:
                print("No case more than %.1f%% worse in instructions." % args.threshold)
            print()
            if args.out:
                os.makedirs(args.out, exist_ok=True)
                with open(os.path.join(args.out, "noregress-ir.json"), "w") as f:
                    json.dump({"old": benches["old"], "new": benches["new"], "rows": rows}, f,
                              indent=1)
        if args.time_rounds > 0:
            rows = check_time(args, benches, envs, cases)
            if args.out:
                os.makedirs(args.out, exist_ok=True)
                with open(os.path.join(args.out, "noregress-time.json"), "w") as f:
                    json.dump({"old": benches["old"], "new": benches["new"], "rows": rows}, f,
                              indent=1)
    except RunFailed as e:
        print("noregress: a run failed: %s" % e, file=sys.stderr)
        return 2
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
