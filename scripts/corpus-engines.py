#!/usr/bin/env python3
"""The time of NVIDIA's samples (the `corpus` ctest label) on both host engines, side by side.

  scripts/corpus-engines.py --build build-clang [--rounds 2] [--workers 1] [--filter REGEX] [--compiler CXX]
                            [--slow] [--timeout SECONDS] [--output docs/measurements/DATE-corpus-engines.md]

Each sample is built once, as its ctest builds it (tests/corpus/build_and_run_sample.py, with the
build's cohort-cxx: in a clang build its kernels go through the loops pass), then run under
COHORT_ENGINE=auto and COHORT_ENGINE=fibers in turn, --rounds times each, every run passing the
sample's own check. Times are CPU seconds (user + system, the least of the rounds), which a loaded
machine disturbs less than wall time, at COHORT_WORKERS=--workers (1: no worker spins while waiting).
The race-checking tests (label races) are left out: they measure the checker, not the engine; so are
the slow ones (label slow: corpus.scan, over 5 CPU minutes a run at one worker on fibers) unless --slow.
A run longer than --timeout seconds fails its sample (the others go on).
"""

import argparse
import json
import re
import statistics
import os
import subprocess
import sys

TIME = re.compile(r"ran in ([0-9.]+) s \(cpu ([0-9.]+) s\) on engine (\w+)")
# COHORT_ENGINE_REPORT=1's line for a kernel that auto left on fibers, and why.
ON_FIBERS = re.compile(r"cohort: kernel `(.*)` runs on fibers: (.*)")
ENGINES = ("auto", "fibers")
RUNNER = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tests", "corpus",
                      "build_and_run_sample.py")


def corpus_tests(build, name_filter, slow):
    """(name, command) of each corpus test of the build, as ctest would run it."""
    left_out = "races" if slow else "races|slow"
    listing = subprocess.run(["ctest", "--test-dir", build, "-L", "corpus", "-LE", left_out, "--show-only=json-v1"],
                             check=True, capture_output=True, text=True).stdout
    tests = json.loads(listing)["tests"]
    return [(t["name"], t["command"]) for t in tests if re.search(name_filter, t["name"])]


def with_engines(command, rounds, workers, compiler, timeout):
    """The test's command asking build_and_run_sample.py (this checkout's) to run the sample under both engines,
    built by `compiler` where one is given."""
    command = [RUNNER if word.endswith("build_and_run_sample.py") else word for word in command]
    if compiler:
        command = [w for w in command if not w.startswith("--cxx-flag=--compiler=")]
        split = command.index("--args") if "--args" in command else len(command)
        command.insert(split, f"--cxx-flag=--compiler={compiler}")
    extra = ["--engines", ",".join(ENGINES), "--rounds", str(rounds), "--env", f"COHORT_WORKERS={workers}",
             "--env", "COHORT_ENGINE_REPORT=1", "--timeout", str(timeout)]
    split = command.index("--args") if "--args" in command else len(command)
    return command[:split] + extra + command[split:]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", required=True, help="a configured and built build folder, e.g. build-clang")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--workers", default="1")
    parser.add_argument("--filter", default="", help="a regex on the test names")
    parser.add_argument("--compiler", help="cohort-cxx's compiler for the samples, in place of the test's "
                        "(the release build's tests name g++; its cohort-cxx's own default is the loops pass's clang)")
    parser.add_argument("--slow", action="store_true", help="also the samples labelled slow (corpus.scan)")
    parser.add_argument("--timeout", type=float, default=600, help="seconds one run of a sample may take")
    parser.add_argument("--output", help="a Markdown table to write")
    options = parser.parse_args()

    rows, failed, fallbacks = [], [], {}
    for name, command in corpus_tests(options.build, options.filter, options.slow):
        run = subprocess.run(with_engines(command, options.rounds, options.workers, options.compiler, options.timeout),
                             capture_output=True, text=True)
        cpu = {engine: [] for engine in ENGINES}
        for _, seconds, engine in TIME.findall(run.stdout):
            cpu[engine].append(float(seconds))
        if run.returncode != 0 or not all(cpu.values()):
            failed.append(name)
            print(f"{name}: FAILED\n{run.stdout[-2000:]}{run.stderr[-2000:]}", file=sys.stderr)
            continue
        # A sample that runs for less than the clock's 10 ms counts as 10 ms (no ratio of zeros).
        row = (name, max(min(cpu["auto"]), 0.01), max(min(cpu["fibers"]), 0.01))
        rows.append(row)
        for kernel, reason in ON_FIBERS.findall(run.stdout):
            if reason != "COHORT_ENGINE=fibers":
                fallbacks[(name, kernel)] = reason
        print(f"{row[0]}: loops/auto {row[1]:.2f} s, fibers {row[2]:.2f} s, ratio {row[2] / row[1]:.2f}x", flush=True)

    table = ["| sample | auto (loops where eligible), CPU s | fibers, CPU s | fibers / auto |", "|---|---|---|---|"]
    table += [f"| {n} | {a:.2f} | {f:.2f} | {f / a:.2f} |" for n, a, f in rows]
    if rows:
        total_auto, total_fibers = sum(r[1] for r in rows), sum(r[2] for r in rows)
        ratios = [r[2] / r[1] for r in rows]
        table.append(f"| **all {len(rows)}** | {total_auto:.1f} | {total_fibers:.1f} | {total_fibers / total_auto:.2f} |")
        table.append(f"\nPer sample fibers / auto: min {min(ratios):.2f}, median {statistics.median(ratios):.2f}, "
                     f"max {max(ratios):.2f}.")
    table += ["", "Kernels that `auto` ran on fibers, and why (COHORT_ENGINE_REPORT=1):", "",
              "| sample | kernel | reason |", "|---|---|---|"]
    table += [f"| {n} | `{k}` | {r} |" for (n, k), r in sorted(fallbacks.items())]
    print("\n".join(table))
    if options.output:
        with open(options.output, "w", encoding="utf-8") as f:
            f.write("\n".join(table) + "\n")
    if failed:
        print("failed:", ", ".join(failed), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
