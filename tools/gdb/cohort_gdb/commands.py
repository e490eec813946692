"""gdb commands: `info cohort threads` (also `cohort threads`) lists the
running blocks' GPU threads with their state and source line; `cohort thread
BLOCK THREAD` shows a parked thread's stack; `cohort thread restore` puts the
real registers back, which also happens before the program resumes."""

import os
import re

import gdb

from . import fiber_view, records


def _xyz(v):
    return "(%d,%d,%d)" % v


def _site(site):
    if site is None:
        return ""
    file, line, function = site
    return "%s:%d  %s" % (os.path.basename(file), line, function)


def _ranges(threads):
    """Consecutive threads in the same state at the same site, as (first, last, count)."""
    groups = []
    for t in threads:
        if groups and groups[-1][1].state == t.state and groups[-1][1].site == t.site and groups[-1][1].rank + 1 == t.rank:
            groups[-1][1] = t
            groups[-1][2] += 1
        else:
            groups.append([t, t, 1])
    return groups


def _focus():
    """(block index, rank) of the thread gdb shows: a viewed fiber's, else None."""
    view = fiber_view.active
    return (view.block, view.thread.rank) if view is not None else None


def list_threads(arg, from_tty):
    blocks = records.running_blocks()
    if not blocks:
        gdb.write("No block of a cohort kernel is running.\n")
        return
    focus = _focus()
    selected = gdb.selected_thread()
    if arg.strip() and arg.strip() != "all":
        raise gdb.GdbError("usage: info cohort threads")
    kernels = []
    for b in blocks:
        key = (b.kernel_name(), b.grid, b.dim)
        if key not in kernels:
            kernels.append(key)
            gdb.write("Kernel %s  grid %s  block %s\n" % (key[0], _xyz(b.grid), _xyz(b.dim)))
        threads = b.threads()
        gdb.write(
            "  Block %s (linear %d) on gdb thread %d (LWP %d), %d threads\n"
            % (_xyz(b.index), b.linear, b.os_thread.num, b.os_thread.ptid[1], b.thread_count)
        )
        gdb.write("    %-25s %5s  %-18s %s\n" % ("Threads", "Count", "State", "Location"))
        for first, last, count in _ranges(threads):
            span = _xyz(first.index) if count == 1 else "%s-%s" % (_xyz(first.index), _xyz(last.index))
            if focus is not None:
                marked = focus[0] == b.index and first.rank <= focus[1] <= last.rank
            else:
                marked = b.os_thread == selected and first.state == "running"
            gdb.write(
                "  %s %-25s %5d  %-18s %s\n" % ("*" if marked else " ", span, count, first.state, _site(first.site))
            )


_TUPLE = r"\(?\s*(\d+)\s*(?:,\s*(\d+)\s*)?(?:,\s*(\d+)\s*)?\)?"


def _parse_target(arg):
    """BLOCK THREAD: each a linear number or an (x,y,z) index (missing parts 0)."""
    m = re.fullmatch(r"\s*(" + _TUPLE + r")\s+(" + _TUPLE + r")\s*", arg)
    if not m:
        raise gdb.GdbError("usage: cohort thread BLOCK THREAD (numbers or (x,y,z) indices), or cohort thread restore")
    block_text, thread_text = m.group(1), m.group(5)
    return _index_or_number(block_text), _index_or_number(thread_text)


def _index_or_number(text):
    parts = [int(p) for p in re.findall(r"\d+", text)]
    if "(" in text or "," in text:
        return tuple(parts + [0] * (3 - len(parts)))
    return parts[0]


def _find_block(blocks, wanted):
    for b in blocks:
        if (isinstance(wanted, tuple) and b.index == wanted) or (not isinstance(wanted, tuple) and b.linear == wanted):
            return b
    listed = ", ".join("%s (linear %d)" % (_xyz(b.index), b.linear) for b in blocks)
    raise gdb.GdbError("cohort: block %s is not running now; running: %s" % (wanted, listed or "none"))


def switch_thread(arg, from_tty):
    if arg.strip() == "restore":
        if fiber_view.active is not None:
            fiber_view.restore()
            gdb.write("cohort: the real registers are back.\n")
        return
    wanted_block, wanted_thread = _parse_target(arg)
    fiber_view.restore()  # the listing reads the real state
    blocks = records.running_blocks()
    block = _find_block(blocks, wanted_block)
    threads = block.threads()
    match = [
        t
        for t in threads
        if (t.index == wanted_thread if isinstance(wanted_thread, tuple) else t.rank == wanted_thread)
    ]
    if not match:
        raise gdb.GdbError("cohort: block %s has no thread %s" % (_xyz(block.index), wanted_thread))
    t = match[0]
    where = "block %s thread %s (rank %d)" % (_xyz(block.index), _xyz(t.index), t.rank)
    if t.state == "running":
        block.os_thread.switch()
        gdb.newest_frame().select()
        gdb.write("cohort: %s is running on gdb thread %d: its registers are the OS thread's.\n" % (where, block.os_thread.num))
        gdb.execute("frame", from_tty=from_tty)
        return
    if t.fiber_context is None:
        raise gdb.GdbError("cohort: %s has %s: it has no stack to show" % (where, t.state))
    with records.selected_os_thread(block.os_thread):
        running_site = records.newest_source_frame(gdb.newest_frame())
    fiber_view.show(block.os_thread, block.index, t, running_site)
    gdb.write("cohort: showing %s, %s at %s (`cohort thread restore` puts the real registers back).\n" % (where, t.state, _site(t.site)))
    _select_frame_at(t.site)
    gdb.execute("frame", from_tty=from_tty)


def _select_frame_at(site):
    """Selects the newest frame at the thread's wait site (the kernel's call of
    the barrier or collective, below the runtime's own frames)."""
    if site is None:
        return
    file, line = site[0], site[1]
    frame = gdb.newest_frame()
    while frame is not None:
        sal = frame.find_sal()
        # The site's file is the compiler's spelling (__FILE__), relative to the
        # build's directory when it was given so (ccache's base_dir does that).
        if sal.symtab is not None and sal.line == line and file in (sal.symtab.filename, sal.symtab.fullname()):
            frame.select()
            return
        frame = frame.older()


class InfoCohort(gdb.Command):
    """cohort's state in the program (see `info cohort threads`)."""

    def __init__(self):
        super().__init__("info cohort", gdb.COMMAND_STATUS, prefix=True)


class InfoCohortThreads(gdb.Command):
    """List the running blocks of cohort kernels and their GPU threads: state
    (running, runnable, the barrier or collective they wait at, exited, not
    started) and source line, consecutive threads alike in one line. `*` marks
    the thread gdb shows."""

    def __init__(self):
        super().__init__("info cohort threads", gdb.COMMAND_STATUS)

    def invoke(self, arg, from_tty):
        list_threads(arg, from_tty)


class Cohort(gdb.Command):
    """cohort's GPU threads: `cohort threads`, `cohort thread BLOCK THREAD`, `cohort thread restore`."""

    def __init__(self):
        super().__init__("cohort", gdb.COMMAND_STACK, prefix=True)


class CohortThreads(gdb.Command):
    """The same as `info cohort threads`."""

    def __init__(self):
        super().__init__("cohort threads", gdb.COMMAND_STACK)

    def invoke(self, arg, from_tty):
        list_threads(arg, from_tty)


class CohortThread(gdb.Command):
    """cohort thread BLOCK THREAD: show a GPU thread's stack, for bt, frame and info locals.
    BLOCK and THREAD are linear numbers (2 37) or indices ((2,0,0) (37,0,0)).
    A parked thread's saved registers replace the OS thread's, and its threadIdx
    the running thread's, until `cohort thread restore` or the program resumes."""

    def __init__(self):
        super().__init__("cohort thread", gdb.COMMAND_STACK)

    def invoke(self, arg, from_tty):
        switch_thread(arg, from_tty)


# Commands that resume the program: the real registers go back first.
RESUMING = ["continue", "next", "step", "stepi", "nexti", "finish", "until", "advance", "jump", "signal",
            "kill", "detach", "run", "start", "call", "return"]


def _install_restore_hooks():
    for command in RESUMING:
        hook = "hook-" + command
        try:
            gdb.execute("show user " + hook, to_string=True)
            continue  # the user's own hook stays: `cohort thread restore` by hand then
        except gdb.error:
            pass
        gdb.execute("define %s\ncohort thread restore\nend" % hook, to_string=True)


def register():
    InfoCohort()
    InfoCohortThreads()
    Cohort()
    CohortThreads()
    CohortThread()
    _install_restore_hooks()
    gdb.events.exited.connect(lambda event: fiber_view.forget())
