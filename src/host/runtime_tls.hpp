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
// So the runtime's own thread-locals go to .tdata (COHORT_RUNTIME_TLS):
// below every __shared__ variable, out of the way of an overrun past one
// (an underrun from the first __shared__ variable can still reach them).
// Its only .tbss variable is the guard spacer, which thus follows the
// kernels' __shared__ variables; a thread that runs blocks makes its whole
// pages PROT_NONE (at least 64 KiB), so that a write up to 64 KiB past the
// last __shared__ variable faults and is reported (shared_faults.hpp)
// rather than reaching the TCB. Thread-locals needing construction are
// pointers here, set on first use, their objects destroyed through
// __cxa_thread_atexit: a function-local thread_local's guard would be a
// .tbss variable of its own.
#pragma once

#include <cstddef>
#include <cstdint>

#define COHORT_RUNTIME_TLS __attribute__((section(".tdata.cohort_runtime")))

namespace cohort::detail::host {

constexpr std::size_t tls_guard_bytes = 64 * 1024;

// The spacer's whole pages, on the calling thread.
struct tls_guard_span {
  std::uintptr_t begin, end;
};
tls_guard_span tls_guard_pages();
// The spacer itself, on the calling thread, and its symbol's name.
std::uintptr_t tls_guard_spacer_address();
inline constexpr const char* tls_guard_spacer_symbol = "_ZN6cohort6detail4host16tls_guard_spacerE";
// Closes (a thread about to run blocks) or opens again (the thread ends) the
// calling thread's guard pages.
void close_tls_guard();
void open_tls_guard();

// Registers `destroy(object)` to run when the calling thread ends, as a
// thread_local's destructor would.
void at_thread_exit(void (*destroy)(void*), void* object);

}  // namespace cohort::detail::host
