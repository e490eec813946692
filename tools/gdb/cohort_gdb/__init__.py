"""cohort's gdb extension: GPU threads of the host backend (each a fiber) made
visible to gdb. Loaded by the `.debug_gdb_scripts` entry that every program
linked with cohort carries (src/host_runtime/diagnostics/debugger_support.cpp), or by hand with
`source <prefix>/share/cohort/gdb/cohort-gdb.py`. See docs/host-backend.md,
"Debugging kernels with gdb"."""

import gdb

from . import commands, printers

_registered = False


def register(objfile=None):
    """Registers the commands once per gdb session and the printers for `objfile`."""
    global _registered
    printers.register(objfile)
    if not _registered:
        commands.register()
        _registered = True
