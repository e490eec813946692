"""Showing a parked GPU thread's stack in gdb: its fiber's saved registers are
written into the OS thread's registers for a while, so that `bt`, `frame N`
and `info locals` walk the fiber's frames; the real registers (and
`threadIdx`) are put back by `cohort thread restore`, and before the program
resumes (the hooks in commands.py).

A parked fiber's context is its stack pointer at the switch, the registers the
hand-written switch saved lying just above it (src/host_runtime/fibers/context_switch_*.S).
The view shows the fiber as it will be once the switch has returned into it:
the saved return address is the pc, the stack pointer lies above the saved
registers, the callee-saved registers hold their saved values.
"""

import gdb

from . import records

# (register, offset from the context) as each switch saves them, and how far
# above the context the stack pointer lies once the switch has returned.
X86_64 = {
    "saved": [("r15", 0), ("r14", 8), ("r13", 16), ("r12", 24), ("rbx", 32), ("rbp", 40), ("rip", 48)],
    "sp": ("rsp", 56),
    "restore": ["rip", "rsp", "rbp", "rbx", "r12", "r13", "r14", "r15"],
}
# AArch64 (d8-d15 are saved too, below x19, but not shown: gdb writes them
# only as vector registers' halves, and kernels' -O0 locals live in memory).
AARCH64 = {
    "saved": [("x%d" % (19 + i), 64 + 8 * i) for i in range(10)] + [("x29", 144), ("x30", 152), ("pc", 152)],
    "sp": ("sp", 160),
    "restore": ["pc", "sp"] + ["x%d" % r for r in range(19, 31)],
}


def layout():
    """The switch's layout for this program, or an error where the program
    switches fibers with Boost.Context's fcontext (another layout)."""
    if gdb.lookup_global_symbol("cohort_jump_context") is None and not _has_minimal_symbol("cohort_jump_context"):
        raise gdb.GdbError(
            "cohort: this program switches fibers with Boost.Context (COHORT_FIBER_SWITCH=boost or an "
            "architecture without cohort's own switch); `cohort thread` reads only the hand-written switch's frames"
        )
    arch = gdb.selected_frame().architecture().name()
    if "x86-64" in arch:
        return X86_64
    if "aarch64" in arch:
        return AARCH64
    raise gdb.GdbError("cohort: `cohort thread` knows the fiber switch of x86-64 and AArch64, not of " + arch)


def _has_minimal_symbol(name):
    try:
        return gdb.parse_and_eval("(long)&" + name) != 0
    except gdb.error:
        return False


class View:
    """The fiber shown in one OS thread, and what to put back."""

    def __init__(self, os_thread, block, thread, saved_registers, saved_thread_index, running_site):
        self.os_thread = os_thread
        self.block = block  # block index (x, y, z)
        self.thread = thread  # the ThreadState shown
        self.saved_registers = saved_registers  # [(name, value)]
        self.saved_thread_index = saved_thread_index  # (address, bytes) of threadIdx
        self.running_site = running_site  # where the real running thread stands


active = None  # the View in place, if any


def _read_u64(inferior, address):
    return int.from_bytes(bytes(inferior.read_memory(address, 8)), "little")


def show(os_thread, block, thread, running_site):
    """Switches gdb to `thread`'s parked fiber on `os_thread`."""
    global active
    restore()
    os_thread.switch()
    gdb.newest_frame().select()
    regs = layout()
    inferior = gdb.selected_inferior()
    frame = gdb.newest_frame()
    saved = [(name, int(frame.read_register(name).cast(gdb.lookup_type("unsigned long")))) for name in regs["restore"]]
    index_address = int(records.evaluate("&threadIdx"))
    saved_index = bytes(inferior.read_memory(index_address, 12))
    context = thread.fiber_context
    values = [(name, _read_u64(inferior, context + offset)) for name, offset in regs["saved"]]
    sp_name, sp_offset = regs["sp"]
    values.append((sp_name, context + sp_offset))
    active = View(os_thread, block, thread, saved, (index_address, saved_index), running_site)
    _write_registers(values)
    x, y, z = thread.index
    inferior.write_memory(index_address, b"".join(v.to_bytes(4, "little") for v in (x, y, z)))


def restore():
    """Puts the real registers and threadIdx back, if a fiber is shown."""
    global active
    view, active = active, None
    if view is None or not view.os_thread.is_valid():
        return
    previous = gdb.selected_thread()
    view.os_thread.switch()
    gdb.newest_frame().select()
    _write_registers(view.saved_registers)
    address, data = view.saved_thread_index
    gdb.selected_inferior().write_memory(address, data)
    if previous is not None and previous.is_valid() and previous != view.os_thread:
        previous.switch()


def forget():
    """The program is gone: nothing to put back."""
    global active
    active = None


def _write_registers(values):
    for name, value in values:
        gdb.execute("set $%s = %d" % (name, value), to_string=True)
