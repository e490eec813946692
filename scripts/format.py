#!/usr/bin/env python3
"""Formats cohort's C++ and CUDA sources with clang-format 19 (.clang-format).

  scripts/format.py            reformat every tracked source in place
  scripts/format.py --check    list the sources that differ from the format;
                               exit 1 if any does (the docs.format test)

The format differs between clang-format versions, so one version is used:
clang-format-19, or the one COHORT_CLANG_FORMAT names (scripts/install-deps.sh
installs it). Without it, or outside a git checkout, --check exits 77 (ctest's
"skipped") saying why.
"""
import os
import shutil
import subprocess
import sys

SKIPPED = 77
SOURCES = ("*.cpp", "*.hpp", "*.h", "*.cu", "*.cuh", "*.c")


def main():
    check = "--check" in sys.argv[1:]
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    tool = os.environ.get("COHORT_CLANG_FORMAT") or shutil.which("clang-format-19")
    if not tool:
        print("clang-format-19 not found (scripts/install-deps.sh installs it; COHORT_CLANG_FORMAT names "
              "another): the format is not checked")
        return SKIPPED if check else 1
    listed = subprocess.run(["git", "-C", repo, "ls-files", "-z", "--", *SOURCES], capture_output=True)
    if listed.returncode != 0:
        print("not a git checkout: the format is checked on the tracked sources of one")
        return SKIPPED if check else 1
    files = [f for f in listed.stdout.decode().split("\0") if f]
    if not check:
        subprocess.run([tool, "-i", *files], cwd=repo, check=True)
        return 0
    # One process for the whole tree: --dry-run names each file that would change, in its warnings.
    checked = subprocess.run([tool, "--dry-run", "--Werror", *files], cwd=repo, capture_output=True, text=True)
    unformatted = sorted({line.split(":", 1)[0] for line in checked.stderr.splitlines() if ": error: code should" in line})
    if checked.returncode != 0 and not unformatted:
        print(checked.stderr)
        return 1
    for f in unformatted:
        print(f"{f}: not in the format of .clang-format; run scripts/format.py")
    return 1 if unformatted else 0


if __name__ == "__main__":
    sys.exit(main())
