#!/usr/bin/env python3
"""Per variant of lat-ab.sh (or run.sh) over rounds: median time, posted -> received p50/p90
(µs, --lat runs), values received by the communication worker, every rank's idle (ms) and, on
this branch, the idle workers' repeated steps and parks while an import was pending, per
factorisation. Usage: summarize-idle.py DIR"""
import glob, json, os, re, sys

rows = {}
for f in sorted(glob.glob(os.path.join(sys.argv[1], "*-r*.json"))):
    m = re.match(r"(?:lat|chol)-(.+)-r(\d+)\.json", os.path.basename(f))
    rows.setdefault(m.group(1), []).append((int(m.group(2)), json.load(open(f))["results"][0]))
for v in sorted(rows):
    print(v)
    for n, r in sorted(rows[v], key=lambda x: x[0]):
        line = f"  r{n} {r['median_s']:.3f} s"
        if "latency" in r:
            l = r["latency"]; p = l["posted_to_received"]
            line += f"  posted->received p50 {p['p50_us']:.0f} p90 {p['p90_us']:.0f} max {p['max_us']:.0f}"
            line += f"  by comm {l['received_by_comm_worker']}/{l['values']}"
        if "worker_idle_s" in r:
            line += "  idle ms " + "/".join(f"{x*1e3:.0f}" for x in r["worker_idle_s"])
        if "idle_steps_pending_per_rank" in r:
            line += "  idle steps again " + "/".join(f"{x:.0f}" for x in r["idle_steps_pending_per_rank"])
            line += "  parks pending " + "/".join(f"{x:.1f}" for x in r["idle_parks_pending_per_rank"])
        if "comm_cpu_s_per_rank" in r:
            line += "  comm cpu ms " + "/".join(f"{x*1e3:.0f}" for x in r["comm_cpu_s_per_rank"])
        print(line)
