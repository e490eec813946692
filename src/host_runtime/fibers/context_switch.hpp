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
// switch is entered by a call and left by a ret where both fibers switched
// from the same call site (threads parking at one barrier): the buffer stays
// balanced and the ret is predicted. From different sites, and where the
// fiber left is never resumed (leave_context), the x86-64 switch leaves by an
// indirect jump instead, which is predicted where a ret could not be
// (context_switch_x86_64.S says when).
#pragma once

#if defined(COHORT_CONTEXT_BOOST)
#include <boost/context/detail/fcontext.hpp>
#endif

#include <cstddef>
#include <cstdint>
#include <cstdlib>

// Every switch stores the suspended fiber's context where its caller says
// (`save`), before the resumed fiber runs: the resumed fiber then has nothing
// to do for the switch, so a switch can be a function's last call (a tail
// call: the block barrier's, which returns from the switch straight into
// kernel code). fcontext hands the suspended context to the resumed fiber
// instead, which stores it there (see the Boost part below).

namespace cohort::detail::host::context {

#if defined(COHORT_CONTEXT_BOOST)
using boost::context::detail::fcontext_t;
using boost::context::detail::transfer_t;

// What an fcontext switch hands over: the caller's data, where the suspended
// context goes, and (for a start or a resume_with) the function to call.
struct handover {
  void* data;
  fcontext_t* save;
  void (*call)(transfer_t);
};
// The resumed side of an fcontext switch: stores the suspended context.
inline transfer_t received(transfer_t t) {
  const auto* h = static_cast<const handover*>(t.data);
  *h->save = t.fctx;
  return {t.fctx, h->data};
}
inline void enter_handed_over(transfer_t t) {
  const auto* h = static_cast<const handover*>(t.data);
  const auto call = h->call;
  call(received(t));
}
inline transfer_t jump_context(fcontext_t to, void* data, fcontext_t* save) {
  handover h{data, save, nullptr};
  return received(boost::context::detail::jump_fcontext(to, &h));
}
inline transfer_t start_context(void* top, std::size_t size, void* data, void (*entry)(transfer_t), fcontext_t* save) {
  handover h{data, save, entry};
  return received(
      boost::context::detail::jump_fcontext(boost::context::detail::make_fcontext(top, size, &enter_handed_over), &h));
}
// No switch of its own to leave a fiber for good: a jump that saves the
// leaving fiber's context where nothing reads it.
[[noreturn]] inline void leave_context(fcontext_t to, void* data) {
  fcontext_t discarded;
  jump_context(to, data, &discarded);
  std::abort();
}
inline transfer_t call_on_top(transfer_t t) {
  enter_handed_over(t);
  std::abort();  // the functions called on top never return
}
inline transfer_t resume_with(fcontext_t to, void* data, fcontext_t* save, void (*fn)(transfer_t)) {
  handover h{data, save, fn};
  return received(boost::context::detail::ontop_fcontext(to, &h, &call_on_top));
}
#else
// A suspended fiber: its stack pointer, its registers saved just above.
using fcontext_t = void*;
// What the resumed fiber receives: the context of the fiber that switched to
// it (now suspended, and stored already) and the switcher's data pointer.
struct transfer_t {
  fcontext_t fctx;
  void* data;
};
}  // namespace cohort::detail::host::context

extern "C" {
cohort::detail::host::context::transfer_t cohort_jump_context(void* to, void* data, void** save);
#if defined(__x86_64__)
[[noreturn]] void cohort_leave_context(void* to, void* data);
#endif
cohort::detail::host::context::transfer_t cohort_resume_with(void* to, void* data, void** save,
                                                             void (*fn)(cohort::detail::host::context::transfer_t));
#if defined(__x86_64__)
cohort::detail::host::context::transfer_t cohort_start_context(void* top, void* data,
                                                               void (*entry)(cohort::detail::host::context::transfer_t),
                                                               void** save);
#else
void cohort_context_entry();
#endif
}

namespace cohort::detail::host::context {

// Suspends the running fiber, its context stored at *save, and resumes `to`,
// which receives {the suspended context, data}; returns when some fiber
// resumes this one.
inline transfer_t jump_context(fcontext_t to, void* data, fcontext_t* save) {
  return cohort_jump_context(to, data, save);
}

// Resumes `to`, which receives `data`, leaving the running fiber for good:
// it is never resumed, so nothing of it is saved.
[[noreturn]] inline void leave_context(fcontext_t to, void* data) {
#if defined(__x86_64__)
  cohort_leave_context(to, data);
#else
  fcontext_t discarded;
  cohort_jump_context(to, data, &discarded);
  std::abort();
#endif
}

// Suspends the running fiber (its context stored at *save) and calls
// fn({its context, data}) on top of the suspended fiber `to`, as though `to`'s
// own switch had called it: an exception fn throws unwinds `to`'s frames.
inline transfer_t resume_with(fcontext_t to, void* data, fcontext_t* save, void (*fn)(transfer_t)) {
  return cohort_resume_with(to, data, save, fn);
}

#if !defined(__x86_64__)
// A context that, when jumped to, calls entry({switcher's context, data}) on
// the stack below `top`. `entry` must never return.
fcontext_t make_context(void* top, std::size_t size, void (*entry)(transfer_t));
#endif

// Suspends the running fiber (its context stored at *save) and calls
// entry({its context, data}) on a fresh stack of `size` bytes below `top`;
// returns, as jump_context does, when some fiber resumes the suspended one.
// On x86-64 this is one step: no frame is written for the new fiber
// beforehand and its entry is called straight from the switch. Elsewhere:
// make_context, then a jump.
inline transfer_t start_context(void* top, std::size_t size, void* data, void (*entry)(transfer_t), fcontext_t* save) {
#if defined(__x86_64__)
  (void)size;
  return cohort_start_context(reinterpret_cast<void*>(reinterpret_cast<std::uintptr_t>(top) & ~std::uintptr_t{15}),
                              data, entry, save);
#else
  return jump_context(make_context(top, size, entry), data, save);
#endif
}
#endif

}  // namespace cohort::detail::host::context
