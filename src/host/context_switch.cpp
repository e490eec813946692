#include "context_switch.hpp"

#if !defined(COHORT_CONTEXT_BOOST)
#include <cstdint>

namespace cohort::detail::host::context {

// The frame the switch pops to enter a fresh fiber: the callee-saved registers,
// then the return address, which is cohort_context_entry (it calls the entry
// function it finds in the frame with the transfer the switch left in the
// argument registers).
fcontext_t make_context(void* top, std::size_t, void (*entry)(transfer_t)) {
  auto t = reinterpret_cast<std::uintptr_t>(top) & ~std::uintptr_t{15};
  auto* const frame_top = reinterpret_cast<void**>(t);
#if defined(__x86_64__)
  // Popped in order: r15 r14 r13 r12 rbx rbp, then ret. rbx holds the entry.
  // After the ret the stack pointer is 16-byte aligned, as the entry call needs.
  void** sp = frame_top - 9;
  for (int i = 0; i < 6; ++i) sp[i] = nullptr;
  sp[4] = reinterpret_cast<void*>(entry);
  sp[6] = reinterpret_cast<void*>(&cohort_context_entry);
  sp[7] = nullptr;
  sp[8] = nullptr;
#elif defined(__aarch64__)
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
