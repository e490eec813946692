// The loop every runner fiber executes. A kernel that never waits runs all of
// a block's threads here, on one fiber, without a single switch; the body is a
// template argument so it can be inlined.
#pragma once

#include "cohort/detail/host/runtime/state.hpp"

namespace cohort::detail::host {

// The thread loop's loops start at a 64-byte boundary, so that a short
// kernel's streak loop (saxpy's: 43 bytes) lies in as few of the CPU's fetch
// blocks as it can: where it fell across one, the same loop took 20% longer
// (GCC aligns a loop to 16 bytes at most, and only where little padding
// does it). Both functions carry it, so
// that one is still inlined into the other (and the kernel into both).
#if defined(__GNUC__) && !defined(__clang__)
#define COHORT_THREAD_LOOP [[gnu::optimize("align-loops=64")]]
#else
#define COHORT_THREAD_LOOP
#endif

void thread_exit_slow(block_record& block, thread_record& thread);
// Called by a runner that has started every thread of its block (or whose
// block failed): returns when the runner goes on to the worker's next block
// (its threads then run on it); otherwise the runner leaves for the block's
// next runnable thread, else the worker's own stack, and is never resumed.
void runner_done(block_record& block);
// Records the exception a kernel thread let escape as the block's error.
void kernel_threw();

// Thrown by the runtime through a failed block's kernel frames, so that their
// destructors run; not a std::exception, so that kernels' handlers for those
// let it pass (one that swallows it meets it again at its next wait).
struct fiber_unwind {};

// Runs threads from rank `rank` on while nothing waits: a thread's exit is
// then just one live thread fewer, so the streak only sets the running
// thread's position and runs the body. Threads go row by row (threadIdx.x
// innermost), threadIdx and the rank read from threadIdx and streak_position,
// which the loop writes from its own counters: a body that never calls into the runtime
// makes the inner loop a plain loop over threadIdx.x with one store per thread
// (threadIdx.x; GCC keeps it in the loop, as the kernel's stores through
// pointers might reach it, so it does not vectorize it). A call in settles the
// block's counts and the running thread from that position (settle_streak)
// and ends the streak. Returns the rank of the thread whose body ended it, or
// the thread count when none did.
template <class Body>
COHORT_THREAD_LOOP unsigned run_streak(block_record& b, unsigned rank, const Body& body) {
  const dim3 shape = b.block_dim;
  const unsigned count = b.thread_count;
  thread_record* const threads = b.threads;
  b.streak_first = rank;
  b.streak_live = b.live;
  b.streak = true;
  const uint3 first = threads[rank].index;  // written when the worker met this block shape
  unsigned x = first.x, y = first.y, z = first.z;
  current_position = &streak_position;
  for (unsigned row = rank - x; row < count; row += shape.x) {
    ::threadIdx.y = y;
    ::threadIdx.z = z;
    streak_position.row = row;
    for (; x < shape.x; ++x) {
      ::threadIdx.x = x;
      body();
      if (!b.streak) return row + x;  // the body called in: settled up to this thread
    }
    x = 0;
    if (++y == shape.y) y = 0, ++z;
  }
  b.next_unstarted = count;
  b.live = b.streak_live - (count - rank);
  b.streak = false;
  return count;
}

// Claims the block's next unstarted thread, runs the kernel body for it,
// counts it exited, repeats: threads run in rank order, in streaks while
// nothing waits.
//
// Otherwise the inner loop keeps the live count in a register and stores it,
// never reading it back, so that the loop carries no chain through memory;
// what the body can have changed while it waited (other threads exiting or
// starting) shows as a stored value that no longer holds. Every store is made
// before the body runs, so a body that enters the runtime (a barrier, a
// collective) finds the block's state exact.
//
// The loop runs a copy of the body: when it holds the kernel's arguments, a
// local copy, which no store of the kernel's can change, so that the compiler
// keeps them in registers across the loop.
//
// A runner with no thread left to start goes on to the worker's next block
// from here (runner_done), or leaves its fiber from here for good: a thread
// that ends returns from the kernel into this loop and from nowhere else.
template <class Body>
[[noreturn]] COHORT_THREAD_LOOP void run_threads(const Body& kernel) {
  const Body body = kernel;
  block_record& b = *current_block;  // the worker's one record, whichever block it holds
  for (;;) {
    const unsigned count = b.thread_count;
    thread_record* const threads = b.threads;
    try {
      for (unsigned rank = b.next_unstarted; rank < count; rank = b.next_unstarted) {
        if ((b.parked | b.arrivals_pending) == 0) {
          const unsigned r = run_streak(b, rank, body);
          if (r == count) continue;
          --b.live;
          if ((b.parked | b.arrivals_pending) != 0) thread_exit_slow(b, threads[r]);
          continue;
        }
        for (unsigned live = b.live; rank < count; ++rank) {
          b.next_unstarted = rank + 1;
          thread_record& t = threads[rank];  // its index and rank are written already
          set_running(t);
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
    runner_done(b);
  }
}

}  // namespace cohort::detail::host
