// The loop every runner fiber executes: claim the block's next unstarted
// thread, run the kernel body for it, count it exited, repeat. A kernel that
// never waits runs all of a block's threads here, on one fiber, without a
// single switch; the body is a template argument so it can be inlined.
#pragma once

#include "cohort/host/detail/state.hpp"

namespace cohort::host::detail {

void thread_exit_slow(block_record& block, thread_record& thread);
// Records the exception a kernel thread let escape as the block's error.
void kernel_threw();

// Thrown by the runtime through a failed block's kernel frames, so that their
// destructors run; not a std::exception, so that kernels' handlers for those
// let it pass (one that swallows it meets it again at its next wait).
struct fiber_unwind {};

// The inner loop runs threads in rank order until the body waits or an exit
// must be settled with waiting threads; only then does a call leave it. The
// live count is kept in a register and stored, never read back, so that the
// loop carries no chain through memory; what the body can have changed while
// it waited (other threads exiting or starting) shows as a stored value that
// no longer holds. Every store is made before the body runs, so a body that
// enters the runtime (a barrier, a collective) finds the block's state exact.
template <class Body>
void run_threads(const Body& body) {
  block_record& b = *current_block;  // a fiber never leaves its block or its OS thread
  const unsigned count = b.thread_count;
  thread_record* const threads = b.threads;
  try {
    for (unsigned rank = b.next_unstarted; rank < count; rank = b.next_unstarted) {
      for (unsigned live = b.live; rank < count; ++rank) {
        b.next_unstarted = rank + 1;
        thread_record& t = threads[rank];  // its index and rank are written already
        current_thread = &t;
        body();
        const bool others_ran = b.live != live || b.next_unstarted != rank + 1;
        b.live = others_ran ? b.live - 1 : --live;
        if ((b.parked | b.arrivals_pending) != 0) {
          thread_exit_slow(b, t);
          break;
        }
        if (others_ran) break;
      }
    }
  } catch (const fiber_unwind&) {
  } catch (...) {
    kernel_threw();
  }
}

}  // namespace cohort::host::detail
