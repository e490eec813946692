// Fibers: one stack each, switched with Boost.Context's fcontext primitives.
// fcontext (rather than boost::context::fiber) because the scheduler decides
// when a fiber is unwound: a failed block's parked fibers are resumed once
// more and unwound by an exception (scheduler.hpp), except a fiber whose
// stack overflowed, which is left where it stands.
#pragma once

#include <boost/context/detail/fcontext.hpp>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "fiber_sanitizer.hpp"

namespace cohort::host::detail {

namespace ctx = boost::context::detail;

struct stack_area {
  char* base = nullptr;      // the guard zone starts here
  std::size_t guard = 0;     // bytes below the usable part: PROT_NONE if `guarded`, else never used
  std::size_t usable = 0;    // bytes above the guard
  std::size_t color = 0;     // bytes left unused at the top, different for each stack
  bool guarded = false;      // the guard zone is PROT_NONE (else it is left untouched)
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
  stack_area stack;  // empty for the worker's own stack
  ::cohort::detail::host::sanitizer_fiber sanitizer;
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
  // Why the last acquire() failed: the mapping limit or memory, with the numbers.
  std::string failure() const;

 private:
  bool map_slab();
  void unmap(const stack_area& s);

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

// To be called first by a fiber resumed or entered: records where the fiber
// that switched to it left off. `saved` is what the resumed fiber's switch
// kept for the sanitizers (nullptr on a fresh fiber).
inline void resumed(ctx::transfer_t t, void* saved) {
  fiber* from = static_cast<fiber*>(t.data);
  ::cohort::detail::host::after_switch(saved, &from->sanitizer);
  from->context = t.fctx;
}

// jump_fcontext enters the resumed fiber with an indirect jmp, so the return
// address its caller pushed stays on the CPU's return stack buffer, and the
// resumed fiber's next ret is mispredicted: 12 ns a switch on this project's
// machines, measured with a ring of fibers switching from one call level down
// (6 ns a switch without that level). On x86-64 the call is made here, where
// the return address is a known label: the switching fiber clears rcx, which
// jump_fcontext leaves alone; a resumed fiber that finds it clear "returns" to
// the label it stands at, a ret the buffer predicts, which pops the stale
// address, and goes on with rcx set. A fiber entered by a jump that did not
// clear rcx just goes on; either way the transfer is the same.
inline ctx::transfer_t jump(ctx::fcontext_t to, void* data) {
#if defined(__x86_64__) && defined(__GNUC__)
  register void* context asm("rdi") = to;
  register void* payload asm("rsi") = data;
  register void* from_context asm("rax");
  register void* from_data asm("rdx");
  asm volatile(
      "mov %%rsp, %%rbx\n\t"
      "sub $128, %%rsp\n\t"  // the red zone: the caller may keep data below its stack pointer
      "and $-16, %%rsp\n\t"
      "xor %%ecx, %%ecx\n\t"
      "call jump_fcontext@PLT\n"
      "1:\n\t"
      "test %%rcx, %%rcx\n\t"
      "jnz 2f\n\t"
      "lea 1b(%%rip), %%rcx\n\t"
      "push %%rcx\n\t"
      "ret\n"
      "2:\n\t"
      "mov %%rbx, %%rsp"
      : "+r"(context), "+r"(payload), "=r"(from_context), "=r"(from_data)
      :
      : "rbx", "rcx", "r8", "r9", "r10", "r11", "memory", "cc", "st", "st(1)", "st(2)", "st(3)", "st(4)", "st(5)",
        "st(6)", "st(7)", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10",
        "xmm11", "xmm12", "xmm13", "xmm14", "xmm15"
#if defined(__AVX512F__)
        ,
        "xmm16", "xmm17", "xmm18", "xmm19", "xmm20", "xmm21", "xmm22", "xmm23", "xmm24", "xmm25", "xmm26", "xmm27",
        "xmm28", "xmm29", "xmm30", "xmm31", "k1", "k2", "k3", "k4", "k5", "k6", "k7"
#endif
  );
  return {from_context, from_data};
#else
  return ctx::jump_fcontext(to, data);
#endif
}

// Switches from the running fiber `from` to `to`; returns when some fiber
// switches back to `from`. Inline: every call level between a kernel's wait
// and the jump costs a mispredicted return after it (but for the one that
// jump() takes back). The one place a fiber switch happens, so the one place
// the sanitizers are told of it.
inline void switch_fiber(fiber& from, fiber& to) {
  void* saved = nullptr;
  ::cohort::detail::host::before_switch(&saved, to.sanitizer);
  resumed(jump(to.context, &from), saved);
}

// Starts `to` as a fresh fiber running `entry` on its stack.
inline void start_fiber(fiber& from, fiber& to, void (*entry)(ctx::transfer_t)) {
  to.context = ctx::make_fcontext(to.stack.top(), to.stack.usable - to.stack.color, entry);
  to.sanitizer.created(to.stack.base + to.stack.guard, to.stack.usable);
  switch_fiber(from, to);
}

}  // namespace cohort::host::detail
