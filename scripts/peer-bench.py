#!/usr/bin/env python3
"""Runs the side-by-side benchmark (bench/peer): cohort's and HIP-CPU's executables
take turns, at -O2 and at -O3 -march=native, with 1 and 2 workers, and prints each
row's min / median / max over the rounds and the ratio of the medians.

usage: scripts/peer-bench.py [BUILD_DIR] [--rounds N] [--workers 1,2]
Ratios are cohort's time over HIP-CPU's (below 1: cohort is faster); saxpy rows
also show cohort over the plain -O2 loop. On a shared or loaded machine, compare
the ratios of one run: both sides see the same load, in turns."""
import argparse
import collections
import statistics
import subprocess
import sys
from pathlib import Path

parser = argparse.ArgumentParser()
parser.add_argument("build", nargs="?", default="build")
parser.add_argument("--rounds", type=int, default=5)
parser.add_argument("--workers", default="1,2")
args = parser.parse_args()
peer = Path(args.build) / "bench" / "peer"
flavours = ["O2", "native"]
sides = ["cohort", "hip_cpu"]
workers = [int(w) for w in args.workers.split(",")]
for f in flavours:
    for s in sides:
        if not (peer / f"peer_{s}_{f}").exists():
            sys.exit(f"{peer}/peer_{s}_{f} is missing: build the target peer_bench (needs HIP-CPU and libtbb-dev)")

samples = collections.defaultdict(list)  # (flavour, row, side) -> values
units = {}
rows = []
for r in range(args.rounds):
    for f in flavours:
        for w in workers:
            for s in (sides if r % 2 == 0 else sides[::-1]):
                out = subprocess.run([str(peer / f"peer_{s}_{f}"), str(w)], check=True, capture_output=True, text=True)
                for line in out.stdout.splitlines():
                    name, value, unit = line.split("\t")
                    samples[(f, name, s)].append(float(value))
                    units[name] = unit
                    if (f, name) not in rows:
                        rows.append((f, name))
    print(f"round {r + 1}/{args.rounds} done", file=sys.stderr)


def mmm(values):
    return f"{min(values):.4g} / {statistics.median(values):.4g} / {max(values):.4g}"


print(f"| flags | row | unit | cohort min / median / max | HIP-CPU min / median / max | cohort / HIP-CPU | cohort / plain -O2 loop |")
print("|---|---|---|---|---|---|---|")
for f, name in rows:
    if name.endswith("plain loop") and f != "O2":
        continue
    c, h = samples[(f, name, "cohort")], samples[(f, name, "hip_cpu")]
    if not c or not h:  # a row one side's build does not have (an older build's)
        continue
    ratio = statistics.median(c) / statistics.median(h)
    plain = ""
    if name.startswith("saxpy") and not name.endswith("plain loop"):
        loop = samples[("O2", "saxpy 4M plain loop", "cohort")] + samples[("O2", "saxpy 4M plain loop", "hip_cpu")]
        plain = f"{statistics.median(c) / statistics.median(loop):.2f}"
    flags = "-O2" if f == "O2" else "-O3 -march=native"
    print(f"| {flags} | {name} | {units[name]} | {mmm(c)} | {mmm(h)} | {ratio:.2f} | {plain} |")

# Scaling: each row's median with the first worker count over its median with the last.
if len(workers) > 1:
    lo, hi = f"/w{workers[0]}", f"/w{workers[-1]}"
    print()
    print(f"| flags | row | cohort speed-up {workers[0]} -> {workers[-1]} workers | HIP-CPU speed-up |")
    print("|---|---|---|---|")
    for f, name in rows:
        if not name.endswith(lo) or name.startswith("launch"):
            continue
        other = name[: -len(lo)] + hi
        if not all(samples[(f, n, s)] for n in (name, other) for s in sides):
            continue
        ups = [statistics.median(samples[(f, name, s)]) / statistics.median(samples[(f, other, s)]) for s in sides]
        flags = "-O2" if f == "O2" else "-O3 -march=native"
        print(f"| {flags} | {name[: -len(lo)]} | {ups[0]:.2f} | {ups[1]:.2f} |")
