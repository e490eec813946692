// Where the runtime's thread-locals lie, and what guards the kernels'
// __shared__ variables (thread-locals of the program) from them.
//
// An OS thread's static TLS on x86-64 ends at its thread pointer, with the
// C library's thread record (TCB) right above it; the program's own block
// holds, in link order, its initialized thread-locals (.tdata), then its
// zero-initialized ones (.tbss), the kernels' __shared__ variables among
// them, the runtime's (a static library, linked after the kernels) last. A
// kernel writing past a __shared__ array ran into whatever came next: the
// runtime's pointers to its worker and block records, then the TCB.
//
// So every thread-local of the runtime is defined here, in this order, in
// .tdata: below every __shared__ variable, and followed by a low guard
// spacer (8 KiB: a whole page at least) that keeps them off the pages of
// the __shared__ variables. The runtime's only .tbss variable is the high
// spacer (68 KiB), which thus follows the kernels' __shared__ variables. A
// thread that runs blocks makes the spacers' whole pages PROT_NONE, so that
// a write up to 64 KiB past the last __shared__ variable, or a page before
// the first, faults and is reported (shared_faults.hpp) rather than
// reaching the TCB or the runtime's pointers. Thread-locals needing
// construction are pointers here, set on first use, their objects
// destroyed through at_thread_exit: a function-local thread_local's
// construction guard would be a .tbss variable of its own.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cohort/detail/host/runtime/state.hpp"
#include "cohort/host/statistics.hpp"

namespace cohort::detail::host {

struct worker_context;
struct core_waiter;
struct loops_storage;

// The running block and thread, and CUDA's built-in variables, are declared
// in state.hpp (kernel code reads them); these are the runtime's alone. The
// worker's:
extern thread_local constinit worker_context* this_worker;        // worker.cpp's worker()
extern thread_local constinit loops_storage* this_loops_storage;  // loops_block.cpp's storage()
// The OS thread's, whether it runs blocks or launches them:
extern thread_local constinit core_waiter* this_threads_waiter;                 // worker_pool.cpp's this_waiter()
extern thread_local constinit bool holds_core;                                  // worker_pool.cpp
extern thread_local constinit int current_device_index;                         // virtual_devices.cpp
extern thread_local constinit cohort::host::launch_statistics last_statistics;  // launch.cpp
// The call a grid barrier's refusal names (launch.cpp's cooperative_launch_named).
extern thread_local constinit const char* cooperative_call;

constexpr std::size_t tls_guard_bytes = 64 * 1024;

// A spacer's whole pages, on the calling thread: `low` between the
// runtime's thread-locals and the __shared__ variables, `high` after them.
struct tls_guard_span {
  std::uintptr_t begin, end;
  bool contains(std::uintptr_t a) const { return a >= begin && a < end; }
};
tls_guard_span tls_low_guard_pages();
tls_guard_span tls_high_guard_pages();
// The spacers themselves, on the calling thread, and their symbols' names.
std::uintptr_t tls_low_spacer_end();
std::uintptr_t tls_high_spacer_address();
inline constexpr const char* tls_low_spacer_symbol = "_ZN6cohort6detail4host20tls_low_guard_spacerE";
inline constexpr const char* tls_high_spacer_symbol = "_ZN6cohort6detail4host16tls_guard_spacerE";
// Closes (a thread about to run blocks) or opens again (the thread ends) the
// calling thread's guard pages.
void close_tls_guard();
void open_tls_guard();
// Opens the guard pages of every thread that has them closed: at an exit()
// that leaves threads running blocks (worker_pool.cpp), for whatever reads
// their TLS after them (LeakSanitizer scans every thread's at exit).
void open_every_tls_guard();

// Registers `destroy(object)` to run when the calling thread ends, as a
// thread_local's destructor would.
void at_thread_exit(void (*destroy)(void*), void* object);

}  // namespace cohort::detail::host
