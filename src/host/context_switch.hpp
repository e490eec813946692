// The fiber switch: saves the callee-saved registers and the stack pointer of
// the running fiber on its own stack and resumes another. Written by hand for
// x86-64 (SysV) and AArch64, where it is a plain function that a fiber calls and
// that returns into the fiber it resumes; Boost.Context's fcontext elsewhere
// (chosen at CMake time: COHORT_CONTEXT_BOOST).
//
// Why not fcontext everywhere: jump_fcontext also saves the x87 control word
// and MXCSR (a kernel has no floating-point environment of its own to keep:
// CUDA fixes rounding per instruction) and enters the resumed fiber with an
// indirect jump, which leaves the caller's return address on the CPU's return
// stack buffer, so the resumed fiber mispredicts its next return. Here the
// switch is entered by a call and left by a ret: the buffer stays balanced,
// and when both fibers switched from the same call site (threads parking at
// one barrier) the ret is predicted too.
#pragma once

#if defined(COHORT_CONTEXT_BOOST)
#include <boost/context/detail/fcontext.hpp>
#endif

#include <cstddef>
#include <cstdint>

namespace cohort::detail::host::context {

#if defined(COHORT_CONTEXT_BOOST)
using boost::context::detail::fcontext_t;
using boost::context::detail::transfer_t;
inline transfer_t jump_context(fcontext_t to, void* data) { return boost::context::detail::jump_fcontext(to, data); }
inline fcontext_t make_context(void* top, std::size_t size, void (*entry)(transfer_t)) {
  return boost::context::detail::make_fcontext(top, size, entry);
}
#define COHORT_CONTEXT_START_BY_JUMP
#else
// A suspended fiber: its stack pointer, its registers saved just above.
using fcontext_t = void*;
// What the resumed fiber receives: the context of the fiber that switched to
// it (now suspended) and the switcher's data pointer.
struct transfer_t {
  fcontext_t fctx;
  void* data;
};
}  // namespace cohort::detail::host::context

extern "C" cohort::detail::host::context::transfer_t cohort_jump_context(void* to, void* data);
#if defined(__x86_64__)
extern "C" cohort::detail::host::context::transfer_t cohort_start_context(
    void* top, void* data, void (*entry)(cohort::detail::host::context::transfer_t));
#else
extern "C" void cohort_context_entry();
#define COHORT_CONTEXT_START_BY_JUMP
#endif

namespace cohort::detail::host::context {

// Suspends the running fiber and resumes `to`, which receives {the suspended
// fiber's context, data}; returns when some fiber resumes this one.
inline transfer_t jump_context(fcontext_t to, void* data) { return cohort_jump_context(to, data); }

#if defined(COHORT_CONTEXT_START_BY_JUMP)
// A context that, when jumped to, calls entry({switcher's context, data}) on
// the stack below `top`. `entry` must never return.
fcontext_t make_context(void* top, std::size_t size, void (*entry)(transfer_t));
#endif
#endif

// Suspends the running fiber and calls entry({its context, data}) on a fresh
// stack of `size` bytes below `top`; returns, as jump_context does, when some
// fiber resumes the suspended one. Where the switch is hand-written (x86-64)
// this is one step: no frame is written for the new fiber beforehand and its
// entry is called straight from the switch. Elsewhere: make_context, then a jump.
inline transfer_t start_context(void* top, std::size_t size, void* data, void (*entry)(transfer_t)) {
#if defined(COHORT_CONTEXT_START_BY_JUMP)
  return jump_context(make_context(top, size, entry), data);
#else
  (void)size;
  return cohort_start_context(reinterpret_cast<void*>(reinterpret_cast<std::uintptr_t>(top) & ~std::uintptr_t{15}),
                              data, entry);
#endif
}

}  // namespace cohort::detail::host::context
