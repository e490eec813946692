#!/usr/bin/env python3
"""Checks that the runtime reads the environment in one place only.

  scripts/check-settings-readers.py [REPO]

Every COHORT_* variable is read by src/host_runtime/launch/settings.cpp's table, once
(docs/settings.md); a getenv anywhere else in the library's sources (src/,
include/, compat/) would be a setting the table does not list. Prints each
such call with where it stands; exits 1 if there is one.
"""

import os
import re
import sys

READER = os.path.join("src", "host_runtime", "launch", "settings.cpp")
CALL = re.compile(r"\b(?:secure_)?getenv\s*\(")


def main():
    repo = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    found = []
    for top in ("src", "include", "compat"):
        for folder, _, files in os.walk(os.path.join(repo, top)):
            for name in files:
                path = os.path.join(folder, name)
                relative = os.path.relpath(path, repo)
                if relative == READER or not name.endswith((".cpp", ".hpp", ".h", ".cu", ".cuh")):
                    continue
                with open(path, encoding="utf-8", errors="replace") as source:
                    for number, line in enumerate(source, 1):
                        if CALL.search(line):
                            found.append(f"{relative}:{number}: {line.strip()}")
    for line in found:
        print(f"{line}\n  reads the environment outside {READER}: add the variable to its table")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
