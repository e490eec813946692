// Fibers: one stack each, switched by context_switch.hpp's primitives, which
// know nothing of unwinding: the scheduler decides when a fiber is unwound (a
// failed block's parked fibers are resumed once more and unwound by an
// exception, worker.cpp), except a fiber whose stack overflowed or that
// faulted, which is left where it stands.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "fibers/context_switch.hpp"
#include "fibers/fiber_sanitizer.hpp"

namespace cohort::detail::host {

struct thread_record;

namespace ctx = ::cohort::detail::host::context;

struct stack_area {
  char* base = nullptr;    // the guard zone starts here
  std::size_t guard = 0;   // bytes below the usable part: PROT_NONE if `guarded`, else never used
  std::size_t usable = 0;  // bytes above the guard
  std::size_t color = 0;   // bytes left unused at the top, different for each stack
  bool guarded = false;    // the guard zone is PROT_NONE (else it is left untouched)
  // Stacks are page-aligned, so without the color every fiber's saved
  // registers would sit at the same page offset and compete for the same few
  // cache sets; switching among many fibers would then miss on every switch.
  char* top() const { return base + guard + usable - color; }
  bool guard_contains(const void* address) const {
    const char* a = static_cast<const char*>(address);
    return a >= base && a < base + guard;
  }
  // An unguarded stack that overflowed into its guard zone: the stack pointer
  // `sp`, taken at a switch, lies in the zone. (A canary would cost a page of
  // memory per stack, and stacks go unguarded where there are hundreds of
  // thousands of them.)
  bool overflowed_unguarded(std::uintptr_t sp) const;
};

struct fiber {
  ctx::fcontext_t context = nullptr;
  // The thread parked on it at a block barrier (its queue lists fibers).
  thread_record* parked_thread = nullptr;
  stack_area stack;  // empty for the worker's own stack
  sanitizer_fiber sanitizer;
};

// Stacks of COHORT_STACK_SIZE bytes (default 128 KiB) above a 64 KiB guard
// zone, pooled per OS thread: fibers never migrate, so neither do their
// stacks. They are carved from slabs, one mapping each; a guard made
// PROT_NONE splits its slab, two mappings per stack, so guards are made only
// within a process-wide budget of a quarter of vm.max_map_count. Past it (a
// quarter million threads parked at once, or a program that uses most
// mappings itself) stacks are unguarded and an overflow is caught only when a
// switch finds the stack pointer in the guard zone. After a launch each pool keeps at most its share of a
// process-wide number of stacks and unmaps the rest (trim).
class stack_pool {
 public:
  ~stack_pool();
  // A stack, or nothing when no mapping could be made: failure() then says why.
  std::optional<stack_area> acquire();
  void release(const stack_area& s) { free_.push_back(s); }
  void trim();
  static std::size_t stack_size();
  static std::size_t guard_size();
  // "the thread needed more than <size> of stack (COHORT_STACK_SIZE=...); set
  // COHORT_STACK_SIZE to a larger size (e.g. <twice the size>)": the advice
  // of a stack overflow's message, from the size in force.
  static std::string overflow_advice();
  // Why the last acquire() failed: the mapping limit or memory, with the numbers.
  std::string failure() const;

 private:
  bool map_slab();
  void unmap(std::vector<stack_area>::iterator first, std::vector<stack_area>::iterator last);

  std::vector<stack_area> free_;
  std::size_t made_ = 0;
  std::size_t retained_ = 0;  // stacks of free_ counted in the process-wide retained total
  int map_errno_ = 0;
};

// Stacks mapped, guarded and retained process-wide (for tests and messages).
struct stack_census {
  std::size_t mapped, guarded, retained;
};
stack_census stacks_in_use();

// To be called first by a fiber resumed or entered, for the sanitizers:
// `saved` is what the resumed fiber's switch kept (nullptr on a fresh fiber
// or one resumed only to unwind). The switch itself stored where the
// switching fiber left off (its context), so that a fiber whose switch was
// a tail call, and that has nothing to do when resumed, need not call this
// in a build without sanitizers.
inline void resumed(ctx::transfer_t t, void* saved) { after_switch(saved, &static_cast<fiber*>(t.data)->sanitizer); }

// Switches from the running fiber `from` to `to`; returns when some fiber
// switches back to `from`. Inline, so that fibers parking at one barrier all
// call the switch from one place, and its return is predicted. The one place
// the sanitizers are told of a switch (context_switch.hpp: the hand-written
// switch, or fcontext where there is none).
inline void switch_fiber(fiber& from, fiber& to) {
  void* saved = nullptr;
  before_switch(&saved, to.sanitizer);
  resumed(ctx::jump_context(to.context, &from, &from.context), saved);
}

// Switches from `from` to `to` for good: `from` is never resumed (a runner
// with no thread left), so nothing of it is kept, for the sanitizers either.
[[noreturn]] inline void leave_fiber(fiber& from, fiber& to) {
  before_switch(nullptr, to.sanitizer);
  ctx::leave_context(to.context, &from);
}

// Switches from `from` to `to` only to call fn on top of `to`'s suspended
// frames, as though its last switch had called fn (which never returns to
// it): an exception fn throws unwinds `to`'s frames. Returns when some fiber
// switches back to `from`.
inline void switch_fiber_calling(fiber& from, fiber& to, void (*fn)(ctx::transfer_t)) {
  void* saved = nullptr;
  before_switch(&saved, to.sanitizer);
  resumed(ctx::resume_with(to.context, &from, &from.context, fn), saved);
}

// Starts `to` as a fresh fiber running `entry` on its stack.
inline void start_fiber(fiber& from, fiber& to, void (*entry)(ctx::transfer_t)) {
  // The sanitizers first: the new fiber's frames are written on a stack whose
  // last fiber may have left poisoned frames behind.
  to.sanitizer.created(to.stack.base + to.stack.guard, to.stack.usable);
  void* saved = nullptr;
  before_switch(&saved, to.sanitizer);
  resumed(ctx::start_context(to.stack.top(), to.stack.usable - to.stack.color, &from, entry, &from.context), saved);
}

}  // namespace cohort::detail::host
