#!/usr/bin/env python3
"""Runs gdb in batch mode on parked_kernel (stopped with threads exited, at a
block barrier, at a warp shuffle and running) and checks what cohort's gdb
extension shows: the listing's states and lines, `cohort thread` + `bt` and
`info locals` in parked threads, the printers, the listing after `next` over
the shuffle (its other lanes runnable), and that the program completes once
the real registers are back. Exit 77 (skipped) where gdb cannot run.

usage: run_gdb_test.py PROGRAM SOURCE GDB COMPILER_ID (CMake's: GNU, Clang)"""

import os
import re
import shutil
import subprocess
import sys

SKIP = 77


def marker_lines(source):
    """{"BREAK": line, ...} from the `// NAME` markers of the kernel's source."""
    lines = {}
    with open(source) as f:
        for number, text in enumerate(f, 1):
            m = re.search(r"//\s*([A-Z]+)\s*$", text)
            if m:
                lines[m.group(1)] = number
    return lines


def gdb_script(lines, thread_index):
    return "\n".join([
        "set pagination off",
        "set confirm off",
        "set width 0",
        "break parked_kernel.cpp:%d if blockIdx.x == 0" % lines["BREAK"],
        "run",
        "echo ==listing\\n",
        "info cohort threads",
        "echo ==barrier\\n",
        "cohort thread 0 20",
        "bt",
        "info locals",
        "print " + thread_index,
        "print block",
        "print tile",
        "print grid",
        "echo ==listing-in-view\\n",
        "cohort threads",
        "echo ==shuffle\\n",
        "cohort thread (0,0,0) (50,0,0)",
        "bt",
        "info locals",
        "echo ==restored\\n",
        "cohort thread restore",
        "bt 1",
        "print " + thread_index,
        "echo ==next\\n",
        "next",
        "next",
        "info cohort threads",
        "echo ==continue\\n",
        "cohort thread 0 30",
        "delete",
        "break parked_kernel.cpp:%d if %s.x == 5" % (lines["STREAK"], thread_index),
        "continue",
        "echo ==streak\\n",
        "info cohort threads",
        "delete",
        "break parked_kernel.cpp:%d if %s.x == 5" % (lines["CONVERGE"], thread_index),
        "continue",
        "echo ==converge\\n",
        "info cohort threads",
        "print lanes",
        "continue",
        "",
    ])


def section(output, name):
    start = output.index("==" + name + "\n") + len(name) + 3
    end = output.find("\n==", start)
    return output[start:] if end < 0 else output[start:end]


def main():
    program, source = sys.argv[1], sys.argv[2]
    gdb = sys.argv[3] if len(sys.argv) > 3 else shutil.which("gdb")
    clang = len(sys.argv) > 4 and sys.argv[4] == "Clang"
    # clang's debug info describes the alias threadIdx by its target, cohort's thread position
    # (runtime_tls.cpp), whose index is threadIdx (docs/host-backend.md).
    thread_index = "threadIdx.index" if clang else "threadIdx"
    if not gdb or not os.path.exists(gdb):
        print("gdb not found: the debugger test is skipped (scripts/install-deps.sh installs it)")
        return SKIP
    lines = marker_lines(source)
    script = os.path.join(os.path.dirname(os.path.abspath(program)), "parked_kernel.gdb")
    with open(script, "w") as f:
        f.write(gdb_script(lines, thread_index))
    env = dict(os.environ, COHORT_WORKERS="2")
    run = subprocess.run(
        [gdb, "-nx", "-batch", "-iex", "add-auto-load-safe-path " + os.path.abspath(program), "-x", script, program],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, timeout=300,
    )
    out = run.stdout
    print(out)
    if "ptrace: Operation not permitted" in out or "Python scripting is not supported" in out:
        print("gdb cannot debug here (no ptrace or no Python): the debugger test is skipped")
        return SKIP

    failures = []

    def expect(pattern, text, what):
        if clang:
            pattern = pattern.replace(r"int\*", r"int ?\*")  # clang's source_location spells `int *`
        if not re.search(pattern, text, re.MULTILINE):
            failures.append("%s: no match for /%s/" % (what, pattern))

    def refuse(pattern, text, what):
        if re.search(pattern, text, re.MULTILINE):
            failures.append("%s: unexpected /%s/" % (what, pattern))

    refuse(r"Python Exception|Error occurred in Python", out, "gdb")
    src = re.escape("parked_kernel.cpp")
    listing = section(out, "listing")
    expect(r"^Kernel parked_kernel\(int\*, int\*\)\s+grid \(2,1,1\)\s+block \(64,1,1\)$", listing, "listing")
    expect(r"^  Block \(0,0,0\) \(linear 0\) on gdb thread \d+ \(LWP \d+\), 64 threads$", listing, "listing")
    expect(r"^    \(0,0,0\)-\(15,0,0\)\s+16  exited\s*$", listing, "listing")
    expect(r"^    \(16,0,0\)-\(47,0,0\)\s+32  block barrier\s+%s:%d  void parked_kernel\(int\*, int\*\)$"
           % (src, lines["BARRIER"]), listing, "listing")
    expect(r"^    \(48,0,0\)-\(62,0,0\)\s+15  warp collective\s+%s:%d  void parked_kernel\(int\*, int\*\)$"
           % (src, lines["SHUFFLE"]), listing, "listing")
    expect(r"^  \* \(63,0,0\)\s+1  running\s+%s:%d  parked_kernel\(int\*, int\*\)$" % (src, lines["BREAK"]),
           listing, "listing")
    # Block 1 runs on the other worker; where its threads stand is a race.
    expect(r"^  Block \(1,0,0\) \(linear 1\) on gdb thread \d+ \(LWP \d+\), 64 threads$", listing, "listing")

    barrier = section(out, "barrier")
    expect(r"showing block \(0,0,0\) thread \(20,0,0\) \(rank 20\), block barrier at %s:%d" % (src, lines["BARRIER"]),
           barrier, "cohort thread 0 20")
    expect(r"^#\d+ .*parked_kernel \(out=.*, flag=.*\) at .*%s:%d$" % (src, lines["BARRIER"]), barrier, "bt at the barrier")
    expect(r"^rank = 20$", barrier, "info locals at the barrier")
    expect(r"^local_value = 200$", barrier, "info locals at the barrier")
    expect(r"^block = thread_block \{rank 20 of 64, block \(0, 0, 0\)\}$", barrier, "info locals at the barrier")
    expect(r"^tile = thread_block_tile<32> \{rank 20 of 32, tile 0 of 2\}$", barrier, "info locals at the barrier")
    expect(r"^\$1 = \(20, 0, 0\)$", barrier, "threadIdx in the view")
    expect(r"^\$\d+ = grid_group \{rank 20 of 128, block 0 of 2\}$", barrier, "print grid")

    in_view = section(out, "listing-in-view")
    expect(r"^  \* \(16,0,0\)-\(47,0,0\)\s+32  block barrier", in_view, "listing in a view")
    expect(r"^    \(63,0,0\)\s+1  running\s+%s:%d" % (src, lines["BREAK"]), in_view, "listing in a view")

    shuffle = section(out, "shuffle")
    expect(r"^#\d+ .*parked_kernel \(out=.*, flag=.*\) at .*%s:%d$" % (src, lines["SHUFFLE"]), shuffle, "bt at the shuffle")
    expect(r"^local_value = 500$", shuffle, "info locals at the shuffle")

    restored = section(out, "restored")
    expect(r"the real registers are back", restored, "restore")
    expect(r"^#0 .*parked_kernel \(out=.*, flag=.*\) at .*%s:%d$" % (src, lines["BREAK"]), restored, "bt after restore")
    expect(r"^\$\d+ = \(63, 0, 0\)$", restored, "threadIdx after restore")

    # Thread 63, the shuffle's last lane, completes it and goes on: its lanes are runnable.
    stepped = section(out, "next")
    expect(r"^    \(48,0,0\)-\(62,0,0\)\s+15  runnable\s+%s:%d  void parked_kernel\(int\*, int\*\)$"
           % (src, lines["SHUFFLE"]), stepped, "listing after next")
    expect(r"^  \* \(63,0,0\)\s+1  running\s+%s:%d  parked_kernel\(int\*, int\*\)$" % (src, lines["BARRIER"]),
           stepped, "listing after next")

    done = section(out, "continue")
    expect(r"the real registers are back", done, "restore on continue")

    streak = section(out, "streak")
    expect(r"^Kernel streak_kernel\(int\*\)\s+grid \(1,1,1\)\s+block \(64,1,1\)$", streak, "streak listing")
    expect(r"^    \(0,0,0\)-\(4,0,0\)\s+5  exited\s*$", streak, "streak listing")
    expect(r"^  \* \(5,0,0\)\s+1  running\s+%s:%d  streak_kernel\(int\*\)$" % (src, lines["STREAK"]),
           streak, "streak listing")
    expect(r"^    \(6,0,0\)-\(63,0,0\)\s+58  not started\s*$", streak, "streak listing")
    converge = section(out, "converge")
    # Lane 31 completed the convergence and exited; the lanes it released resume in order.
    expect(r"^    \(0,0,0\)-\(4,0,0\)\s+5  exited\s*$", converge, "converge listing")
    expect(r"^  \* \(5,0,0\)\s+1  running\s+%s:%d  converge_kernel\(int\*\)$" % (src, lines["CONVERGE"]),
           converge, "converge listing")
    expect(r"^\$\d+ = coalesced_group \{rank 5 of 32, lanes 0xffffffff, group 0 of 1\}$", converge, "print lanes")
    expect(r"^    \(6,0,0\)-\(30,0,0\)\s+25  runnable\s+%s:%d  void converge_kernel\(int\*\)$"
           % (src, lines["CONVERGE"] - 1), converge, "converge listing")
    expect(r"^    \(31,0,0\)\s+1  exited\s*$", converge, "converge listing")
    # Not anchored: the program's output and gdb's own messages may interleave.
    expect(r"parked_kernel: all values as expected", converge, "the program's result")
    expect(r"exited normally", converge, "the program's exit")

    if failures:
        print("FAILED:\n  " + "\n  ".join(failures))
        return 1
    print("gdb view of parked_kernel: as expected")
    return 0


if __name__ == "__main__":
    sys.exit(main())
