#!/usr/bin/env python3
"""COHORT_CHECK=races on the CUDA program corpus (tests/cuda_programs): each
program built with `cohort-cxx --races` and run under the mode must pass its
own check with no report; with --measure, each is also built plainly and both
runs are timed (CPU seconds, user + system, the least of --repeat runs,
COHORT_WORKERS=1, COHORT_ENGINE=fibers), and a table is written to --output.

  scripts/race_check_corpus.py --cohort-cxx build/bin/cohort-cxx --work /tmp/races \\
      [--measure --repeat 3 --output docs/measurements/2026-11-29-race-check-global.md]
      [--reuse]

--reuse keeps a program already in --work (<program>, <program>_races) rather
than building it again: the races ctest builds with the same command (into
build/tests/races/<program>), and a plain build of an earlier measurement may
be timed again.
"""

import argparse
import concurrent.futures
import os
import re
import resource
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROGRAMS = os.path.join(ROOT, "tests", "cuda_programs")
# What a program needs to run as its ctest runs it.
ARGS = {"half_precision": [os.path.join(PROGRAMS, "data", "half_precision_h200.txt")]}
ENV = {"multi_device_flag": {"COHORT_DEVICE_COUNT": "2"}}


def corpus():
    """The programs tests/cuda_programs/CMakeLists.txt builds, in its order."""
    with open(os.path.join(PROGRAMS, "CMakeLists.txt"), encoding="utf-8") as f:
        text = f.read()
    names = []
    for body in re.findall(r"(?:set|list\(APPEND)\s*\(?\s*cuda_programs\s+([^)]*)\)", text):
        names += [w for w in re.sub(r"#[^\n]*", "", body).split()]
    return names + ["half_precision"]


def build(cohort_cxx, name, races, work, reuse):
    out = os.path.join(work, name + ("_races" if races else ""))
    if reuse and os.path.exists(out):
        return out
    command = [cohort_cxx, "-O2"] + (["--races"] if races else []) + [os.path.join(PROGRAMS, name + ".cu"), "-o", out]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed:\n{done.stderr}")
    return out


def run(program, name, races):
    """(exit status, output, CPU seconds) of one run."""
    # On fibers both ways: under the mode every kernel runs on the fiber engine,
    # and cohort-cxx's default compiler (clang with the loops pass) would run
    # the plain build's kernels on the loops engine where it lowered them.
    env = dict(os.environ, COHORT_WORKERS="1", COHORT_ENGINE="fibers", **ENV.get(name, {}))
    env.pop("COHORT_CHECK", None)
    if races:
        env["COHORT_CHECK"] = "races"
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([program] + ARGS.get(name, []), capture_output=True, text=True, env=env, timeout=600)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return done.returncode, done.stdout + done.stderr, cpu


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cohort-cxx", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--measure", action="store_true")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--output")
    parser.add_argument("--reuse", action="store_true", help="keep the programs already in --work")
    options = parser.parse_args()
    os.makedirs(options.work, exist_ok=True)
    cohort_cxx = os.path.abspath(options.cohort_cxx)
    names = corpus()
    builds = [(n, True) for n in names] + ([(n, False) for n in names] if options.measure else [])
    with concurrent.futures.ThreadPoolExecutor(options.jobs) as pool:
        made = pool.map(lambda b: build(cohort_cxx, b[0], b[1], options.work, options.reuse), builds)
        built = dict(zip(builds, made))

    rows, failures = [], []
    for name in names:
        status, output, checked = run(built[(name, True)], name, True)
        if status != 0 or "data race" in output:
            failures.append(f"{name}: exit {status}\n{output}")
            continue
        if options.measure:
            checked = min([checked] + [run(built[(name, True)], name, True)[2] for _ in range(options.repeat - 1)])
            plain = min(run(built[(name, False)], name, False)[2] for _ in range(options.repeat))
            rows.append((name, plain, checked))
        print(f"{name}: clean", flush=True)

    if options.measure and options.output:
        with open(options.output, "w", encoding="utf-8") as f:
            f.write(table(rows))
    for failure in failures:
        print("FAIL:", failure, file=sys.stderr)
    return 1 if failures else 0


def table(rows):
    total_plain = sum(r[1] for r in rows)
    total_checked = sum(r[2] for r in rows)
    ratios = sorted(r[2] / r[1] for r in rows if r[1] > 0)
    lines = ["| program | plain (s) | checked (s) | slowdown |", "|---|---:|---:|---:|"]
    for name, plain, checked in rows:
        lines.append(f"| {name} | {plain:.3f} | {checked:.3f} | {checked / plain:.1f}x |")
    lines.append(f"| **all {len(rows)}** | {total_plain:.2f} | {total_checked:.2f} | "
                 f"{total_checked / total_plain:.1f}x |")
    median = ratios[len(ratios) // 2] if ratios else 0
    return ("\n".join(lines) + f"\n\nMedian slowdown {median:.1f}x, largest {ratios[-1]:.1f}x.\n") if ratios else ""


if __name__ == "__main__":
    sys.exit(main())
