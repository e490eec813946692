#!/usr/bin/env python3
"""Checks that every repository path a document or a source comment names exists.

  scripts/check-paths.py [REPO]

Looks in README.md and docs/**/*.md (backticked paths and link targets) and in
the comments of the sources (C++, CUDA, CMake, Python, shell) for names that
start at one of the repository's top-level folders (`src/host_runtime/fibers/fiber.cpp`,
`docs/host-backend.md`, `kernels/reduce/`), and for DESIGN.md, which lives
outside the repository. A path may end in a wildcard or a brace list, which
must match something. Paths under ../shared/ (the corpus and the peer, read
where they exist) are allowed. Prints each dangling name with where it stands;
exits 1 if there is one.
"""

import glob
import os
import re
import subprocess
import sys

TOP = ("src", "include", "tests", "docs", "bench", "apps", "compat", "tools", "scripts", "cmake", "examples", ".ci")
PATH = re.compile(r"(?<![\w./-])((?:" + "|".join(re.escape(t) for t in TOP) + r")/[\w.*{},/+-]*[\w*}/])")
SOURCE_SUFFIXES = (".cpp", ".hpp", ".h", ".cu", ".cuh", ".py", ".sh", ".cmake", ".S", ".in", "CMakeLists.txt")
# Comment text of a source line: after //, #, or inside /* */ (a line of a block comment starts with * or //).
COMMENT = re.compile(r"(?://|#(?!include|define|if|endif|else|elif|pragma|undef|error|line)|^\s*\*|/\*)(.*)")


def expansions(name):
    """The names a brace list `a/{b,c}.hpp` stands for."""
    m = re.search(r"\{([^{}]*)\}", name)
    if not m:
        return [name]
    return [e for part in m.group(1).split(",") for e in expansions(name[: m.start()] + part + name[m.end():])]


def exists(repo, name):
    name = name.rstrip(".,:;)")
    for candidate in expansions(name):
        pattern = os.path.join(repo, candidate)
        if "*" in candidate:
            if not glob.glob(pattern):
                return False
        elif not os.path.exists(pattern):
            return False
    return True


def tracked(repo):
    out = subprocess.run(["git", "-C", repo, "ls-files"], capture_output=True, text=True, check=True).stdout
    return [f for f in out.splitlines() if os.path.exists(os.path.join(repo, f))]


def main(argv):
    repo = os.path.abspath(argv[1] if len(argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
    problems = []
    for relative in tracked(repo):
        is_doc = relative.endswith(".md")
        is_source = relative.endswith(SOURCE_SUFFIXES)
        if not (is_doc or is_source):
            continue
        with open(os.path.join(repo, relative), encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
        for number, line in enumerate(lines, 1):
            text = line
            if is_source:
                m = COMMENT.search(line)
                if not m:
                    continue
                text = m.group(1)
            if "DESIGN.md" in text:
                problems.append(f"{relative}:{number}: names DESIGN.md, which is not in the repository")
            for name in PATH.findall(text):
                if "../shared/" in text[max(0, text.find(name) - 10) : text.find(name)]:
                    continue
                if not exists(repo, name):
                    problems.append(f"{relative}:{number}: names {name}, which does not exist")
            if is_doc:
                for target in re.findall(r"\]\(([^)#\s]+)", text):
                    if "://" in target or target.startswith("mailto:") or not re.search(r"[./]", target):
                        continue  # a URL, or code that looks like a link: `[&](unsigned grid)`
                    resolved = os.path.normpath(os.path.join(os.path.dirname(relative), target))
                    if resolved.startswith(".."):
                        continue  # outside the repository: ../shared/ and the like
                    if not os.path.exists(os.path.join(repo, resolved)):
                        problems.append(f"{relative}:{number}: links to {target}, which does not exist")
    for p in problems:
        print(p)
    print(f"check-paths: {len(problems)} dangling name(s)" if problems else "check-paths: every named path exists")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
