// The loop every runner fiber executes: claim the block's next unstarted
// thread, run the kernel body for it, count it exited, repeat. A kernel that
// never waits runs all of a block's threads here, on one fiber, without a
// single switch; the body is a template argument so it can be inlined.
#pragma once

#include "cohort/host/detail/state.hpp"

namespace cohort::host::detail {

void thread_exit_slow(block_record& block, thread_record& thread);
[[noreturn]] void kernel_threw();

// threadIdx of the next thread to start. Fields are read and written one at a
// time: a wide load of a struct just written field by field would miss the
// store buffer and stall every iteration.
inline uint3 advance_index(block_record& b) {
  const unsigned x = b.next_x, y = b.next_y, z = b.next_z;
  if (x + 1 < b.block_dim.x) {
    b.next_x = x + 1;
  } else {
    b.next_x = 0;
    if (y + 1 < b.block_dim.y) {
      b.next_y = y + 1;
    } else {
      b.next_y = 0;
      b.next_z = z + 1;
    }
  }
  return {x, y, z};
}

template <class Body>
void run_threads(const Body& body) {
  block_record& b = *current_block;  // a fiber never leaves its block or its OS thread
  try {
    for (unsigned rank = b.next_unstarted; rank < b.thread_count; rank = b.next_unstarted) {
      b.next_unstarted = rank + 1;
      thread_record& t = b.threads[rank];
      t.index = advance_index(b);
      t.rank = rank;
      current_thread = &t;
      body();
      --b.live;
      if ((b.parked | b.arrivals_pending) != 0) thread_exit_slow(b, t);
    }
  } catch (...) {
    kernel_threw();
  }
}

}  // namespace cohort::host::detail
