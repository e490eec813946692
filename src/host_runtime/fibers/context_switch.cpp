#include "fibers/context_switch.hpp"

#if !defined(__x86_64__) && !defined(COHORT_CONTEXT_BOOST)
#include <cstdint>

namespace cohort::detail::host::context {

// Where no switch starts a fiber itself (AArch64; x86-64 has
// cohort_start_context): the frame the switch pops to enter a fresh fiber, the
// callee-saved registers, then the return address, which is
// cohort_context_entry (it calls the entry function it finds in the frame with
// the transfer the switch left in the argument registers).
fcontext_t make_context(void* top, std::size_t, void (*entry)(transfer_t)) {
  auto t = reinterpret_cast<std::uintptr_t>(top) & ~std::uintptr_t{15};
  auto* const frame_top = reinterpret_cast<void**>(t);
#if defined(__aarch64__)
  // 20 slots: d8-d15, x19-x28, x29 (frame pointer), x30 (link register, where
  // the switch returns). x19 holds the entry.
  void** sp = frame_top - 20;
  for (int i = 0; i < 20; ++i) sp[i] = nullptr;
  sp[8] = reinterpret_cast<void*>(entry);
  sp[19] = reinterpret_cast<void*>(&cohort_context_entry);
#else
#error "no hand-written fiber switch for this architecture: configure with COHORT_CONTEXT_BOOST"
#endif
  return sp;
}

}  // namespace cohort::detail::host::context
#endif
