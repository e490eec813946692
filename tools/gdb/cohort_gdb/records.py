"""Reading the host runtime's records of running blocks from a stopped program.

Each worker OS thread holds at most one block at a time, found through its
thread-local `current_block` (a `block_runtime`: src/host_runtime/launch/block_runtime.hpp).
A GPU thread's state follows from the block's record as the runtime itself
reads it (include/cohort/detail/host/runtime/state.hpp): started or not from
`next_unstarted`, running if it is the OS thread's running fiber's thread,
else its record's `wait_kind`, and exited when it is `none`.
"""

import gdb

from . import fiber_view

HOST = "cohort::detail::host::"

# wait_kind's enumerators, as the listing names them.
WAIT_NAMES = {
    "none": "exited",
    "runnable": "runnable",
    "block_barrier": "block barrier",
    "grid_barrier": "grid barrier",
    "cluster_barrier": "cluster barrier",
    "multi_grid_barrier": "multi-grid barrier",
    "collective": "warp collective",
    "converge": "coalesced_threads",
}


class RecordsUnavailable(gdb.GdbError):
    """The program has no cohort runtime, or it lacks the debug info to read it."""


def _type(name):
    try:
        return gdb.lookup_type(HOST + name)
    except gdb.error:
        raise RecordsUnavailable(
            "cohort: no debug info for %s%s: the program is not linked with cohort, or its "
            "runtime was stripped of the debug info it always carries" % (HOST, name)
        )


def evaluate(expression):
    """An expression in C++, whatever the language of the selected frame (an
    OS thread stopped in libc's futex wait is in C)."""
    language = gdb.parameter("language")
    if language in ("auto", "c++"):
        frame_language = gdb.selected_frame().language() if hasattr(gdb.Frame, "language") else "c"
        if language == "c++" or frame_language == "c++":
            return gdb.parse_and_eval(expression)
    gdb.execute("set language c++", to_string=True)
    try:
        return gdb.parse_and_eval(expression)
    finally:
        gdb.execute("set language " + language, to_string=True)


def thread_index():
    """threadIdx, read as what it is: the streak position's index (an alias of it, runtime_tls.cpp),
    which clang's debug info types as the whole position."""
    return evaluate(HOST + "streak_position")["index"]


def _enumerator(value):
    """The name of an enum value without its qualification."""
    return str(value).rsplit("::", 1)[-1]


def source_location(loc):
    """(file, line, function) of a std::source_location, or None when empty.
    Its record's fields are named by the compilers' __builtin_source_location
    (_M_file_name & co.); the pointer to it is libstdc++'s _M_impl or libc++'s __ptr_."""
    for pointer in ("_M_impl", "__ptr_"):
        try:
            impl = loc[pointer]
        except gdb.error:
            continue
        if int(impl) == 0:
            return None
        return (impl["_M_file_name"].string(), int(impl["_M_line"]), impl["_M_function_name"].string())
    return None


def newest_source_frame(frame):
    """(file, line, function) of the newest frame at or above `frame` that has a source line."""
    while frame is not None:
        sal = frame.find_sal()
        if sal.symtab is not None and sal.line:
            function = frame.function()
            return (sal.symtab.filename, sal.line, function.print_name if function else frame.name() or "??")
        frame = frame.older()
    return None


class ThreadState:
    """One GPU thread of a block, as the listing and `cohort thread` need it."""

    def __init__(self, rank, index, state, site=None, fiber_context=None):
        self.rank = rank
        self.index = index  # (x, y, z)
        self.state = state  # "running", "not started", "exited" or a wait
        self.site = site  # (file, line, function) where it waits or runs
        self.fiber_context = fiber_context  # the saved context's address, for a parked thread


class Block:
    """A block held by one worker OS thread at the moment the program stopped."""

    def __init__(self, os_thread, record):
        self.os_thread = os_thread  # gdb.InferiorThread
        self.record = record  # a block_runtime
        self.index = _xyz(record["block_index"])
        self.dim = _xyz(record["block_dim"])
        self.grid = _xyz(record["grid_dim"])
        self.linear = int(record["linear"])
        self.thread_count = int(record["thread_count"])
        self.warp_size = int(record["warp_size"])

    def kernel_name(self):
        try:
            address = int(self.record["launch"]["entry"]["kernel"])
        except gdb.error:
            return "?"
        block = gdb.block_for_pc(address)
        if block is not None and block.function is not None:
            return block.function.print_name
        return "0x%x" % address

    def threads(self):
        """Every thread of the block, in rank order, with its state."""
        with selected_os_thread(self.os_thread):
            return self._threads()

    def _threads(self):
        b = self.record
        records = b["threads"]
        running = _running_rank(b)
        started = int(b["next_unstarted"])
        if bool(b["streak"]) and running is not None:
            started = running + 1  # a streak stores no count per thread (thread_loop.hpp)
        released, at_barrier = _barrier_queue_fibers(b)
        result = []
        for rank in range(self.thread_count):
            t = records[rank]
            index = _xyz(t["index"])
            if rank == running:
                result.append(ThreadState(rank, index, "running", _running_site()))
                continue
            if rank >= started:
                result.append(ThreadState(rank, index, "not started"))
                continue
            if bool(b["streak"]):  # a streak starts with nothing waiting: the others exited
                result.append(ThreadState(rank, index, "exited"))
                continue
            kind = _enumerator(t["waiting"])
            if kind == "none":
                result.append(ThreadState(rank, index, "exited"))
                continue
            address = int(t.address)
            site = source_location(t["wait_site"])
            if kind == "block_barrier" and address in released:
                # Released from the barrier, not yet resumed: its record still says block_barrier.
                result.append(ThreadState(rank, index, "runnable", site, released[address]))
            elif kind == "block_barrier":
                result.append(ThreadState(rank, index, WAIT_NAMES[kind], site, at_barrier.get(address)))
            else:
                fiber = released.get(address)
                if fiber is None and int(t["home"]) != 0:
                    fiber = int(t["home"].dereference()["context"])
                result.append(ThreadState(rank, index, WAIT_NAMES.get(kind, kind), site, fiber))
        return result


def _xyz(v):
    return (int(v["x"]), int(v["y"]), int(v["z"]))


def _view_here():
    """The fiber view in place on the selected OS thread, if any."""
    view = fiber_view.active
    return view if view is not None and view.os_thread == gdb.selected_thread() else None


def _running_rank(b):
    """The rank of the thread the OS thread runs, or None when it runs its own stack."""
    if int(b["running"]) == int(b["main"].address):
        return None
    position = evaluate(HOST + "current_position")
    if int(position) == 0:
        return None
    view = _view_here()  # it replaced threadIdx with the shown thread's
    x = int.from_bytes(view.saved_thread_index[1][:4], "little") if view else int(thread_index()["x"])
    return int(position["row"]) + x


def _running_site():
    """Where the OS thread's running GPU thread stands: its newest frame with a source line."""
    view = _view_here()
    return view.running_site if view else newest_source_frame(gdb.newest_frame())


def _barrier_queue_fibers(b):
    """The block barrier's queue (scheduler.hpp): {thread record address: fiber
    context} for the threads released and not yet resumed, and for those parked."""

    def walk(first, last):
        found = {}
        entry, end = first, last
        while int(entry) < int(end):
            fiber = entry.dereference().dereference()
            thread = int(fiber["parked_thread"])
            if thread:
                found[thread] = int(fiber["context"])
            entry += 1
        return found

    q = b["barrier"]
    return walk(q["head"], q["released"]), walk(q["parked"], q["tail"])


class selected_os_thread:
    """Selects an OS thread (and its newest frame) for a while, then puts back
    the thread and frame that were selected."""

    def __init__(self, os_thread):
        self.os_thread = os_thread

    def __enter__(self):
        self.thread = gdb.selected_thread()
        try:
            self.frame = gdb.selected_frame()
        except gdb.error:
            self.frame = None
        if self.os_thread is not None and self.os_thread != self.thread:
            self.os_thread.switch()

    def __exit__(self, *exc):
        if self.thread is not None and self.thread.is_valid() and self.thread != gdb.selected_thread():
            self.thread.switch()
        if self.frame is not None and self.frame.is_valid():
            self.frame.select()
        return False


def running_blocks():
    """The blocks that the program's OS threads hold now, the selected OS thread's first."""
    inferior = gdb.selected_inferior()
    if inferior.pid == 0:
        raise gdb.GdbError("cohort: the program is not running")
    runtime = _type("block_runtime").pointer()
    selected = gdb.selected_thread()
    ordered = sorted(inferior.threads(), key=lambda t: (t != selected, t.num))
    blocks = []
    for os_thread in ordered:
        with selected_os_thread(os_thread):
            try:
                record = evaluate(HOST + "current_block")
            except gdb.error:
                continue  # a thread whose thread-locals gdb cannot reach
            if int(record) == 0:
                continue
            blocks.append(Block(os_thread, record.cast(runtime).dereference()))
    return blocks
