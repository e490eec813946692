#!/usr/bin/env python3
"""Builds one of NVIDIA's CUDA samples with cohort-cxx, unmodified, and runs it.

  build_and_run_sample.py --cohort-cxx PATH --corpus DIR --sample REL --work DIR
                          [--expect REGEX] [--reject REGEX] [--env NAME=VALUE]... [--args ...]

The sample's sources and include folders are read from its own CMakeLists.txt
(add_executable, target_include_directories), as its build would. The sample
folder and Common/ are copied into the work folder first: the corpus is
read-only and samples write their output files beside themselves. A sample
passes when it exits 0 (the samples exit with their check's verdict), never
prints "FAIL" or what --reject names, and prints what --expect names where its
own check prints its verdict rather than exiting with it. Without the corpus
it exits 77, which ctest reports as skipped. It prints how long the build and
the run took (`ctest -V`), so the engines' times can be compared.
"""

import argparse
import os
import re
import resource
import shutil
import subprocess
import sys
import time



def cmake_list(text, command, target):
    """The arguments of `command(target ...)` in a CMakeLists.txt, without keywords."""
    match = re.search(rf"{command}\s*\(\s*{re.escape(target)}\s+([^)]*)\)", text)
    if not match:
        return []
    words = match.group(1).split()
    return [w for w in words if w not in ("PUBLIC", "PRIVATE", "INTERFACE") and not w.startswith("${")]


def sample_build(sample_dir):
    """(sources, include folders) of the sample's executable, as its CMakeLists.txt names them."""
    with open(os.path.join(sample_dir, "CMakeLists.txt"), encoding="utf-8") as f:
        text = f.read()
    target = re.search(r"add_executable\s*\(\s*(\S+)", text).group(1)
    sources = cmake_list(text, "add_executable", target)
    includes = cmake_list(text, "target_include_directories", target)
    includes += re.findall(r"^\s*include_directories\s*\(([^)$]*)\)", text, re.M)
    return target, sources, [i.strip() for i in includes]


def run_and_check(program, target, options, environment, engine):
    """Runs the built sample once; returns why it failed, or None. Prints its wall and CPU time."""
    print("run:", target, " ".join(options.args), f"(COHORT_ENGINE={engine})" if engine else "", flush=True)
    cpu_before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.monotonic()
    try:
        run = subprocess.run([program] + options.args, cwd=os.path.dirname(program), stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True, errors="replace", timeout=options.timeout,
                             env=environment)
    except subprocess.TimeoutExpired as e:
        output = e.stdout or b""
        sys.stdout.write(output.decode(errors="replace") if isinstance(output, bytes) else output)
        return f"{target} still ran after {options.timeout:.0f} s"
    wall = time.monotonic() - started
    cpu_after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (cpu_after.ru_utime - cpu_before.ru_utime) + (cpu_after.ru_stime - cpu_before.ru_stime)
    sys.stdout.write(run.stdout)
    # The engines' times side by side (docs/loops-engine.md; scripts/corpus-engines.py collects these lines).
    print(f"ran in {wall:.1f} s (cpu {cpu:.2f} s)" + (f" on engine {engine}" if engine else ""))
    if (run.returncode != 0) != options.fails:
        return f"{target} exited with {run.returncode}"
    if re.search(options.reject, run.stdout):
        return f"{target}'s output matches /{options.reject}/"
    if not re.search(options.expect, run.stdout):
        return f"{target}'s own check did not print /{options.expect}/"
    return None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cohort-cxx", required=True)
    parser.add_argument("--corpus", required=True, help="the cuda-samples folder")
    parser.add_argument("--sample", required=True, help="e.g. Samples/0_Introduction/simpleCooperativeGroups")
    parser.add_argument("--work", required=True)
    parser.add_argument("--expect", default="", help="a regex the output must match")
    parser.add_argument("--reject", default=r"FAIL", help="a regex the output must not match")
    parser.add_argument("--env", action="append", default=[], help="NAME=VALUE for the run")
    parser.add_argument("--cxx-flag", action="append", default=[], help="a flag for cohort-cxx (e.g. --races)")
    parser.add_argument("--fails", action="store_true",
                        help="the run must fail (exit status not 0) with --expect in its output: a diagnostic")
    parser.add_argument("--timeout", type=float, default=600, help="seconds the sample may run")
    parser.add_argument("--engines", default="",
                        help="COHORT_ENGINE values to run the sample under in turn, e.g. auto,fibers (each must pass)")
    parser.add_argument("--rounds", type=int, default=1, help="how many times each engine runs it")
    parser.add_argument("--args", nargs=argparse.REMAINDER, default=[])
    options = parser.parse_args()
    cohort_cxx = os.path.abspath(options.cohort_cxx)

    if not os.path.isdir(options.corpus):
        print(f"corpus not found at {options.corpus}: skipped")
        return 77  # ctest's SKIP_RETURN_CODE
    shutil.rmtree(options.work, ignore_errors=True)
    copy = os.path.join(options.work, options.sample)
    shutil.copytree(os.path.join(options.corpus, options.sample), copy)
    shutil.copytree(os.path.join(options.corpus, "Common"), os.path.join(options.work, "Common"))

    target, sources, includes = sample_build(copy)
    program = os.path.join(copy, target)
    command = [cohort_cxx, "-O2"] + options.cxx_flag + ["-I" + os.path.join(options.work, "Common"), "-I."]
    command += ["-I" + i for i in includes] + sources + ["-o", program]
    print("build:", " ".join(command), flush=True)
    started = time.monotonic()
    if subprocess.call(command, cwd=copy) != 0:
        print(f"FAIL: {options.sample} does not build")
        return 1
    print(f"built in {time.monotonic() - started:.1f} s")

    environment = dict(os.environ, **dict(e.split("=", 1) for e in options.env))
    engines = options.engines.split(",") if options.engines else [None]
    for round_number in range(options.rounds):
        # Alternated, so that a change of the machine's load falls on both, and
        # each first every other round, so that neither always runs first.
        for engine in engines if round_number % 2 == 0 else engines[::-1]:
            if engine:
                environment["COHORT_ENGINE"] = engine
            failure = run_and_check(program, target, options, environment, engine)
            if failure:
                print(f"FAIL: {failure}")
                return 1
    print(f"{target}: passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
