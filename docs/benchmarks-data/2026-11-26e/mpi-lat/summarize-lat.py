#!/usr/bin/env python3
"""Prints the latency sections of lat.sh's JSONs: per run, median time, workers' idle, and the
p50/p90/max (µs) of each step of a remote dependence, with which thread made it."""
import json, sys, glob, os
for f in sorted(glob.glob(os.path.join(sys.argv[1], 'lat-*.json'))):
    r = json.load(open(f))['results'][0]
    l = r['latency']
    idle = ' '.join('%.0f' % (x * 1e3) for x in r['worker_idle_s'])
    print('%-22s %.3f s  idle ms [%s]  values %d  by comm: posted %d received %d send_done %d' % (
        os.path.basename(f)[4:-5], r['median_s'], idle, l['values'], l['posted_by_comm_worker'],
        l['received_by_comm_worker'], l['send_done_by_comm_worker']))
    for k in ('asked_to_request_seen', 'final_to_posted', 'posted_to_received', 'received_to_ready', 'final_to_ready',
              'posted_to_send_done', 'asked_after_final'):
        if k not in l:
            continue
        s = l[k]
        if s['n'] == 0:
            print('    %-20s n 0' % k)
            continue
        print('    %-20s n %4d  p10 %8.0f  p50 %8.0f  p90 %8.0f  max %8.0f  mean %8.0f' % (
            k, s['n'], s['p10_us'], s['p50_us'], s['p90_us'], s['max_us'], s['mean_us']))
