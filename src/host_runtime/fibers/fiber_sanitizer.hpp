// What AddressSanitizer and ThreadSanitizer must be told about a fiber switch
// (the host suite runs under both, COHORT_SANITIZE): ASan tracks which stack
// is current to tell a stack access from a wild one and to unpoison frames on
// exceptions; TSan keeps one vector clock per fiber, so that a block's
// threads are seen as the separate threads they are. Every hook is empty in a
// build without the sanitizer.
//
// A TSan switch synchronizes (flags 0): the resumed fiber is ordered after the
// one that left, as it is on the OS thread. That keeps the runtime's own
// bookkeeping, which every fiber of a block touches, free of reports, and
// hides a race between two threads of one block that no barrier separates.
// Reporting those would take switches without the ordering, the runtime's
// accesses hidden from TSan, and barriers and warp collectives annotated as
// the release and acquire they are.
#pragma once

#include <cstddef>

#if defined(__SANITIZE_ADDRESS__)
#define COHORT_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define COHORT_ASAN 1
#endif
#endif
#if defined(__SANITIZE_THREAD__)
#define COHORT_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define COHORT_TSAN 1
#endif
#endif

#if defined(COHORT_ASAN)
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif
#if defined(COHORT_TSAN)
#include <sanitizer/tsan_interface.h>
#endif

namespace cohort::detail::host {

// One fiber's identity for the sanitizers. The worker's own stack learns its
// bounds from ASan when it first switches away.
struct sanitizer_fiber {
#if defined(COHORT_ASAN)
  const void* stack_bottom = nullptr;
  std::size_t stack_size = 0;
#endif
#if defined(COHORT_TSAN)
  void* tsan = nullptr;
  bool owns_tsan = false;
#endif

  // A fiber on a stack of its own, [bottom, bottom + size). The stack may have
  // served a fiber that never returned from its frames (a runner that ran out
  // of threads, a failed block's): their redzones are still poisoned.
  void created(const void* bottom, std::size_t size) {
#if defined(COHORT_ASAN)
    stack_bottom = bottom;
    stack_size = size;
    __asan_unpoison_memory_region(bottom, size);
#endif
#if defined(COHORT_TSAN)
    if (!tsan) {
      tsan = __tsan_create_fiber(0);
      owns_tsan = true;
    }
#endif
    (void)bottom;
    (void)size;
  }
  // The OS thread's own stack.
  void adopt_thread() {
#if defined(COHORT_TSAN)
    tsan = __tsan_get_current_fiber();
    owns_tsan = false;
#endif
  }
  // TSan's record goes with its fiber, after every launch (trim_worker_stacks),
  // though making records is most of a TSan build's launch time. Kept with
  // the stacks instead, the records grew without bound: a test of 10^4 failed
  // launches reached 24 GB resident and was killed. (TSan keeps a shadow call
  // stack per record; the frames a fiber never returns from, a runner's that
  // leaves its fiber for good, a faulting thread's left as it stands, would
  // stay on it.)
  void destroyed() {
#if defined(COHORT_TSAN)
    if (owns_tsan && tsan) __tsan_destroy_fiber(tsan);
    tsan = nullptr;
    owns_tsan = false;
#endif
  }
};

// Called just before the jump to `to`; `saved` keeps the leaving fiber's fake
// stack (ASan's use-after-return frames) until it is resumed. A leaving fiber
// that is never resumed passes nullptr: ASan then frees its fake stack.
inline void before_switch(void** saved, const sanitizer_fiber& to) {
#if defined(COHORT_ASAN)
  __sanitizer_start_switch_fiber(saved, to.stack_bottom, to.stack_size);
#endif
#if defined(COHORT_TSAN)
  __tsan_switch_to_fiber(to.tsan, 0);
#endif
  (void)saved;
  (void)to;
}

// Called first thing on the resumed fiber; `from` is the fiber that switched
// to it, whose bounds ASan reports (how the worker's own stack learns them).
inline void after_switch(void* saved, sanitizer_fiber* from) {
#if defined(COHORT_ASAN)
  const void* bottom = nullptr;
  std::size_t size = 0;
  __sanitizer_finish_switch_fiber(saved, &bottom, &size);
  if (from && !from->stack_bottom) {
    from->stack_bottom = bottom;
    from->stack_size = size;
  }
#endif
  (void)saved;
  (void)from;
}

}  // namespace cohort::detail::host
