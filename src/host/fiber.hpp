// Fibers: one stack each, switched by context_switch.hpp's primitives, which
// know nothing of unwinding: a failed block's fibers are abandoned where they
// stand, and their stacks serve the worker's next block.
#pragma once

#include <cstddef>
#include <vector>

#include "context_switch.hpp"

namespace cohort::detail::host {

namespace ctx = ::cohort::detail::host::context;

struct stack_area {
  char* base = nullptr;      // the guard page starts here
  std::size_t guard = 0;     // bytes of PROT_NONE at the bottom
  std::size_t usable = 0;    // bytes above the guard
  std::size_t color = 0;     // bytes left unused at the top, different for each stack
  // Stacks are page-aligned, so without the color every fiber's saved
  // registers would sit at the same page offset and compete for the same few
  // cache sets; switching among many fibers would then miss on every switch.
  char* top() const { return base + guard + usable - color; }
  bool guard_contains(const void* address) const {
    const char* a = static_cast<const char*>(address);
    return a >= base && a < base + guard;
  }
};

struct fiber {
  ctx::fcontext_t context = nullptr;
  stack_area stack;  // empty for the worker's own stack
};

// Stacks of COHORT_STACK_SIZE bytes (default 128 KiB) with a guard page,
// pooled per OS thread: fibers never migrate, so neither do their stacks.
class stack_pool {
 public:
  ~stack_pool();
  stack_area acquire();
  void release(const stack_area& s) { free_.push_back(s); }
  static std::size_t stack_size();

 private:
  std::vector<stack_area> free_;
  std::size_t made_ = 0;
};

// To be called first by a fresh fiber's entry function: records where the
// fiber that switched to it left off.
inline void adopt_caller(ctx::transfer_t t) { static_cast<fiber*>(t.data)->context = t.fctx; }

// The one place a fiber switch is made (context_switch.hpp: the hand-written
// switch, or fcontext where there is none).
inline ctx::transfer_t jump(ctx::fcontext_t to, void* data) { return ctx::jump_context(to, data); }

// Switches from the running fiber `from` to `to`; returns when some fiber
// switches back to `from`. Inline, so that fibers parking at one barrier all
// call the switch from one place, and its return is predicted.
inline void switch_fiber(fiber& from, fiber& to) { adopt_caller(jump(to.context, &from)); }

// Starts `to` as a fresh fiber running `entry` on its stack.
inline void start_fiber(fiber& from, fiber& to, void (*entry)(ctx::transfer_t)) {
  to.context = ctx::make_context(to.stack.top(), to.stack.usable - to.stack.color, entry);
  switch_fiber(from, to);
}

}  // namespace cohort::detail::host
