// What gdb needs from the runtime to show a kernel's GPU threads (each a
// parked fiber that gdb cannot see by itself): the extension's loader, in the
// program's .debug_gdb_scripts section, and the debug info of the records it
// reads. Linked into every program with cohort: the cohort target makes the
// linker take this object (-Wl,--undefined=cohort_debugger_support, a static
// library's member being linked only where something names it).
//
// The loader is an inline script (gdb's entry kind 4), not a file name: the
// program then names no path that must exist, and gdb still runs it only
// where its auto-load safe-path allows the program. It imports the extension
// (tools/gdb/cohort_gdb) from the source tree the runtime was built from,
// which matches its records, else from the installed share/cohort/gdb. The section's "MS" flags let the linker fold
// identical entries into one.

#include "launch/block_runtime.hpp"
#include "launch/launch_state.hpp"

#ifndef COHORT_GDB_INSTALLED_DIR
#error "COHORT_GDB_INSTALLED_DIR and COHORT_GDB_SOURCE_DIR are set by src/host_runtime/CMakeLists.txt"
#endif

// Python, one statement a line (the section holds one NUL-terminated string).
#define COHORT_GDB_DIRS "('" COHORT_GDB_SOURCE_DIR "', '" COHORT_GDB_INSTALLED_DIR "')"
__asm__(
    ".pushsection .debug_gdb_scripts, \"MS\", %progbits, 1\n"
    ".byte 4\n"
    ".ascii \"cohort-gdb-loader\\n\"\n"
    ".ascii \"import os, sys, gdb\\n\"\n"
    ".ascii \"_cohort_dirs = [d for d in " COHORT_GDB_DIRS
    " if os.path.isfile(os.path.join(d, 'cohort_gdb', '__init__.py'))]\\n\"\n"
    ".ascii \"sys.path[:0] = [d for d in _cohort_dirs[:1] if d not in sys.path]\\n\"\n"
    ".ascii \"if _cohort_dirs: __import__('cohort_gdb').register(gdb.current_objfile())\\n\"\n"
    ".ascii \"if not _cohort_dirs: gdb.write('cohort: no gdb extension (cohort_gdb) in ' + str(" COHORT_GDB_DIRS
    ") + chr(10))\\n\"\n"
    ".byte 0\n"
    ".popsection\n");

// Names the records' types, so that their debug info is in the program even
// where the rest of the runtime is built without -g (this file always is).
extern "C" {
[[gnu::used]] const cohort::detail::host::block_runtime* cohort_debugger_support = nullptr;
// The launch (its kernel's name in the listing), only a declaration in block_runtime.hpp.
[[gnu::used]] const cohort::detail::host::launch_state* cohort_debugger_launch = nullptr;
}
