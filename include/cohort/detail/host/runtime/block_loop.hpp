// The loops engine's side of the runner (docs/loops-engine.md): where the
// fiber engine's runner loops over a block's threads (thread_loop.hpp), this
// one calls the kernel's block function, which the loops pass compiled to run
// all of the block's threads itself, once per block, and goes on to the
// worker's next block. (A barrier-free block function goes on to the next
// blocks itself where nothing but the block's index changes:
// cohort_loops_next_block; it returns after the last of them.)
#pragma once

#include "cohort/detail/host/runtime/state.hpp"
#include "cohort/detail/host/runtime/thread_loop.hpp"

namespace cohort::detail::host {

// The block function the loops pass registered for `kernel`, or null.
const void* loops_block_function(const void* kernel);
// Records the exception kernel code let escape from a block function, as the block's error.
void loops_kernel_threw();

template <class Body>
[[noreturn]] void run_whole_blocks(const Body& block_function) {
  block_record& b = *current_block;
  for (;;) {
    b.next_unstarted = b.thread_count;  // the block function starts every thread
    try {
      block_function();
    } catch (const fiber_unwind&) {
    } catch (...) {
      loops_kernel_threw();
    }
    b.live = 0;
    runner_done(b);
  }
}

}  // namespace cohort::detail::host
