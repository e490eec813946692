#!/usr/bin/env python3
"""Checks the layering of the backends' private headers (docs/architecture.md, "The tree").

  scripts/check-backend-contract.py [REPO]

The top of include/cohort/detail/host/ and include/cohort/detail/cuda/ holds each
backend's contract: exactly the files the shared headers include through
COHORT_BACKEND_HEADER(file), the same set in both backends. Everything else a
backend needs lives in a named subfolder. Prints what breaks the rule; exits 1 if
anything does.
"""

import os
import re
import sys

root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
detail = os.path.join(root, "include", "cohort", "detail")
named = set()
for folder, _, files in os.walk(os.path.join(root, "include")):
    for name in files:
        text = open(os.path.join(folder, name), encoding="utf-8").read()
        named.update(re.findall(r"COHORT_BACKEND_HEADER\(([\w.]+\.hpp)\)", text))

problems = []
for backend in ("host", "cuda"):
    top = {f for f in os.listdir(os.path.join(detail, backend)) if f.endswith(".hpp")}
    for extra in sorted(top - named):
        problems.append(f"detail/{backend}/{extra} is not named by COHORT_BACKEND_HEADER: move it into a subfolder")
    for missing in sorted(named - top):
        problems.append(f"detail/{backend}/{missing} is named by COHORT_BACKEND_HEADER but the backend lacks it")

for problem in problems:
    print("check-backend-contract:", problem)
if not problems:
    print(f"check-backend-contract: {len(named)} contract files at the top of each backend, the rest in subfolders")
sys.exit(1 if problems else 0)
