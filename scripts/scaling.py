#!/usr/bin/env python3
"""Speed-up of the host backend from 1 to N worker threads, per workload: the
side-by-side benchmark's cohort rows (bench/peer: saxpy, the shared-memory tree
reduction, block barriers, shuffles) and `cohort bench reduce|scan` (the
seed's reductions, grid_reduce, device_reduce, the scans and the host's native
whole-array algorithms). COHORT_WORKERS is read once per process, so every
(workload, worker count) is a process of its own; the worker counts take turns
round by round, and each cell is the median over the rounds.

usage: scripts/scaling.py [BUILD_DIR] [--workers 1,2] [--rounds 3] [--sizes 16M] [--realtime]
Prints a Markdown table (time per worker count, speed-up from the first count
to each other) and the load average before and after. On a machine shared with
other work a second worker often finds no core free, and the speed-up then
measures the machine, not the runtime (on this project's 2-vCPU VM, busy with
builds, every workload showed 0.9-1.1x). --realtime runs the benchmark's
processes under SCHED_FIFO (needs root or CAP_SYS_NICE), ahead of the other
work: the speed-up is then what the runtime makes of free cores. The kernel's
real-time throttling still leaves the other work 5% of each second."""
import argparse
import collections
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

parser = argparse.ArgumentParser()
parser.add_argument("build", nargs="?", default="build")
parser.add_argument("--workers", default="1,2")
parser.add_argument("--rounds", type=int, default=3)
parser.add_argument("--sizes", default="16M")
parser.add_argument("--realtime", action="store_true", help="run the benchmarks under SCHED_FIFO (root)")
args = parser.parse_args()
if args.realtime:
    try:
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(1))  # the benchmarks, its children, inherit it
    except PermissionError:
        sys.exit("--realtime needs root or CAP_SYS_NICE (SCHED_FIFO); run without it, or with sudo")
build = Path(args.build)
workers = [int(w) for w in args.workers.split(",")]
peer = build / "bench" / "peer" / "peer_cohort_O2"
cli = build / "apps" / "cohort" / "cohort"
if not peer.exists() and not cli.exists():
    sys.exit(f"neither {peer} nor {cli} is built: build the targets peer_bench and cohort_cli")

samples = collections.defaultdict(list)  # (workload, workers) -> values
units = {}
order = []


def record(name, w, value, unit):
    samples[(name, w)].append(value)
    units[name] = unit
    if name not in order:
        order.append(name)


def run_peer(w, env):
    out = subprocess.run([str(peer), str(w)], check=True, capture_output=True, text=True, env=env).stdout
    for line in out.splitlines():
        name, value, unit = line.split("\t")
        if name.startswith("launch") or name.endswith("plain loop"):
            continue
        record("peer: " + name.rsplit("/w", 1)[0], w, float(value), unit)


def run_cli(w, env, command):
    with tempfile.NamedTemporaryFile(suffix=".json") as f:
        subprocess.run([str(cli), "bench", command, "--backend", "host", "--sizes", args.sizes, "--json", f.name],
                       check=True, capture_output=True, text=True, env=env)
        report = json.load(open(f.name))
    for r in report["results"]:
        if r["variant"].startswith("std-"):  # the standard library runs on TBB's threads, not cohort's workers
            continue
        record(f"{command}: {r['variant']} ({r['size']})", w, r["time_us"]["median"] / 1e3, "ms")


load_before = os.getloadavg()
for r in range(args.rounds):
    for w in (workers if r % 2 == 0 else workers[::-1]):
        env = dict(os.environ, COHORT_WORKERS=str(w))
        if peer.exists():
            run_peer(w, env)
        if cli.exists():
            run_cli(w, env, "reduce")
            run_cli(w, env, "scan")
    print(f"round {r + 1}/{args.rounds} done", file=sys.stderr)
load_after = os.getloadavg()

first = workers[0]
head = " | ".join(f"{w} worker{'s' if w > 1 else ''}" for w in workers)
ups = " | ".join(f"speed-up {first}→{w}" for w in workers[1:])
print(f"| workload | unit | {head} | {ups} |")
print("|---" * (2 + len(workers) + len(workers) - 1) + "|")
for name in order:
    medians = {w: statistics.median(samples[(name, w)]) for w in workers}
    cells = " | ".join(f"{medians[w]:.4g}" for w in workers)
    speedups = " | ".join(f"{medians[first] / medians[w]:.2f}" for w in workers[1:])
    print(f"| {name} | {units[name]} | {cells} | {speedups} |")
print()
print(f"load average (1, 5, 15 min) before: {load_before[0]:.1f} {load_before[1]:.1f} {load_before[2]:.1f}, "
      f"after: {load_after[0]:.1f} {load_after[1]:.1f} {load_after[2]:.1f}; {os.cpu_count()} CPUs; "
      + ("SCHED_FIFO (--realtime)" if args.realtime else "normal scheduling"))
