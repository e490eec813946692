// The loop every runner fiber executes: claim the block's next unstarted
// thread, run the kernel body for it, count it exited, repeat. A kernel that
// never waits runs all of a block's threads here, on one fiber, without a
// single switch; the body is a template argument so it can be inlined.
#pragma once

#include "cohort/detail/host/state.hpp"

namespace cohort::detail::host {

void thread_exit_slow(block_record& block, thread_record& thread);
// Records the exception a kernel thread let escape as the block's error.
void kernel_threw();

// Thrown by the runtime through a failed block's kernel frames, so that their
// destructors run; not a std::exception, so that kernels' handlers for those
// let it pass (one that swallows it meets it again at its next wait).
struct fiber_unwind {};

// Threads run in rank order. While nothing waits (no thread parked, no
// arrival pending) a thread's exit is just one live thread fewer, so the loop
// runs a streak: it points current_thread at each thread and runs the body,
// nothing else. A body that never calls into the runtime then makes the loop
// a plain loop over ranks, which the compiler can vectorize; a call in settles
// the block's counts from the running thread's rank (settle_streak), ends the
// streak, and the loop goes on exactly.
//
// Otherwise the inner loop keeps the live count in a register and stores it,
// never reading it back, so that the loop carries no chain through memory;
// what the body can have changed while it waited (other threads exiting or
// starting) shows as a stored value that no longer holds. Every store is made
// before the body runs, so a body that enters the runtime (a barrier, a
// collective) finds the block's state exact.
template <class Body>
void run_threads(const Body& body) {
  block_record& b = *current_block;  // a fiber never leaves its block or its OS thread
  const unsigned count = b.thread_count;
  thread_record* const threads = b.threads;
  try {
    for (unsigned rank = b.next_unstarted; rank < count; rank = b.next_unstarted) {
      if ((b.parked | b.arrivals_pending) == 0) {
        b.streak_first = rank;
        b.streak_live = b.live;
        b.streak = true;
        unsigned r = rank;
        for (; r < count; ++r) {
          current_thread = &threads[r];
          body();
          if (!b.streak) break;  // the body called in: it is settled up to thread r
        }
        if (b.streak) {  // no call in: every thread of the streak ran and exited
          b.next_unstarted = count;
          b.live = b.streak_live - (count - rank);
          b.streak = false;
          continue;
        }
        --b.live;
        if ((b.parked | b.arrivals_pending) != 0) thread_exit_slow(b, threads[r]);
        continue;
      }
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

}  // namespace cohort::detail::host
