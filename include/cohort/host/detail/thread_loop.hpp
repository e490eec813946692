// The loop every runner fiber executes: claim the block's next unstarted
// thread, run the kernel body for it, mark it exited, repeat. A kernel that
// never waits runs all of a block's threads here, on one fiber, without a
// single switch; the body is a template argument so it can be inlined.
#pragma once

#include "cohort/host/detail/state.hpp"

namespace cohort::host::detail {

void thread_exit_slow(block_record& block, thread_record& thread);
[[noreturn]] void kernel_threw();

inline thread_record* claim_next_thread() {
  block_record& b = *current_block;
  if (b.next_unstarted == b.thread_count) return nullptr;
  thread_record& t = b.threads[b.next_unstarted];
  t.index = b.next_index;
  t.rank = b.next_unstarted++;
  t.home = b.running;
  t.waiting = wait_kind::none;
  t.exited = false;
  t.block_arrival = no_arrival;
  t.grid_arrival = no_arrival;
  if (++b.next_index.x == b.block_dim.x) {
    b.next_index.x = 0;
    if (++b.next_index.y == b.block_dim.y) {
      b.next_index.y = 0;
      ++b.next_index.z;
    }
  }
  current_thread = &t;
  return &t;
}

inline void finish_thread(thread_record& t) {
  block_record& b = *current_block;
  t.exited = true;
  --b.live;
  if (b.parked != 0 || b.arrivals_pending != 0) thread_exit_slow(b, t);
}

template <class Body>
void run_threads(const Body& body) {
  try {
    while (thread_record* t = claim_next_thread()) {
      body();
      finish_thread(*t);
    }
  } catch (...) {
    kernel_threw();
  }
}

}  // namespace cohort::host::detail
