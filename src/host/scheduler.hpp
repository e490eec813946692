// Scheduling a block's threads: each runs on a pooled fiber, all of them on
// the OS thread that runs the block. A thread that must wait parks and hands
// the OS thread directly to the next runnable fiber (a released thread, or a
// fresh runner for threads not yet started); the worker's own stack ("main")
// gets control back only when no fiber can run, and decides (worker.cpp): the
// block is done, it waits at a barrier above the block, or it is deadlocked.
#pragma once

#include <cstdint>
#include <random>
#include <source_location>
#include <string>
#include <vector>

#include "cohort/detail/host/state.hpp"
#include "cohort/detail/host/thread_loop.hpp"
#include "cohort/errors.hpp"
#include "fiber.hpp"

namespace cohort::detail::host {

struct launch_state;
struct worker_context;

// A block as the scheduler sees it: the kernel-visible record, its fibers and
// its ready queue. The runtime's record of the block (block_runtime.hpp)
// extends it with the other mechanisms' parts.
struct scheduled_block : block_record {
  fiber* running = nullptr;  // the fiber executing now
  launch_state* launch = nullptr;
  worker_context* worker = nullptr;  // the OS thread's, which holds this
  stack_pool* stacks = nullptr;      // the worker's, for runners' stacks
  std::vector<thread_record*> ready;
  std::size_t ready_head = 0;
  bool failed = false;
  bool shuffling = false;  // COHORT_SCHEDULE=shuffle
  // Called for a thread about to park while set: the collectives set it while
  // lanes wait in coalesced_threads(), which a parking lane may complete.
  void (*on_park)(scheduled_block&, const thread_record&) = nullptr;
  fiber main;
  // The worker's runner fibers, kept with their stacks from block to block
  // (a block's runners are all over when it ends, run to the end or
  // abandoned): the block's first `fibers_used` run it. Reserved to the
  // thread count before a block starts, so that addresses stay put.
  std::vector<fiber> fibers;
  std::size_t fibers_used = 0;
  std::mt19937_64 shuffle;

  // Makes the waiting threads runnable, in order (shuffled under COHORT_SCHEDULE=shuffle).
  void wake(std::vector<thread_record*>& waiters);
};

// The block of the running thread, its counts settled: every entry from
// kernel code into the scheduler goes through here.
inline scheduled_block& current_scheduled() {
  block_record& b = *current_block;
  settle_streak(b);
  return static_cast<scheduled_block&>(b);
}

// Entry of every runner fiber: runs unstarted threads until none is left.
void runner_main(ctx::transfer_t t);
// A new fiber with a stack from the pool, for a runner; nullptr when no stack
// could be mapped, with the block failed.
fiber* add_runner(scheduled_block& b);
// A fiber for a runner: the worker's next unused one, else a new one.
inline fiber* start_runner(scheduled_block& b) {
  if (b.fibers_used < b.fibers.size()) return &b.fibers[b.fibers_used++];
  return add_runner(b);
}
// An unguarded stack's overflow, found at a switch: fails the block.
[[noreturn]] void overflowed_unguarded(scheduled_block& b);
// Ends the block with an error raised by the current thread; never returns.
[[noreturn]] void fail_block(errc kind, const std::string& message);
// Ends the block because another block failed the launch; never returns.
[[noreturn]] void abandon_block();
// For a thread resumed by a signal handler into a report, whose frames below
// the report have no caller to unwind to: once the report has unwound to its
// own frame, the fiber is left as it stands.
[[noreturn]] void leave_failed_fiber();

// Leaves the running fiber (or main) for the next runnable one: a released
// thread, else a fresh runner for unstarted threads, else main.
inline void switch_away(scheduled_block& b) {
  fiber& self = *b.running;
  if (!self.stack.guarded && self.stack.base &&
      self.stack.overflowed_unguarded(reinterpret_cast<std::uintptr_t>(__builtin_frame_address(0))))
    overflowed_unguarded(b);
  if (b.ready_head < b.ready.size()) {
    thread_record* t = b.ready[b.ready_head++];
    if (b.ready_head == b.ready.size()) {
      b.ready.clear();
      b.ready_head = 0;
    }
    b.running = t->home;
    switch_fiber(self, *t->home);
  } else if (b.next_unstarted < b.thread_count && !b.failed) {
    fiber* runner = start_runner(b);
    if (!runner) {
      if (&self == &b.main) return;  // main finds the block failed
      abandon_block();
    }
    b.running = runner;
    start_fiber(self, *runner, &runner_main);
  } else {
    b.running = &b.main;
    switch_fiber(self, b.main);
  }
}

// Parks the current thread `t` of block `b` until another wakes it.
inline void park(scheduled_block& b, thread_record& t, wait_kind kind, std::source_location where,
                 std::uint64_t phase) {
  t.waiting = kind;
  t.wait_site = where;
  t.wait_phase = phase;
  t.home = b.running;
  ++b.parked;
  if (b.on_park != nullptr) b.on_park(b, t);
  switch_away(b);
  current_thread = &t;
  t.waiting = wait_kind::none;
  b.running = t.home;
  if (b.failed) throw fiber_unwind{};  // resumed only to unwind
}
inline void park(wait_kind kind, std::source_location where, std::uint64_t phase) {
  park(current_scheduled(), *current_thread, kind, where, phase);
}

}  // namespace cohort::detail::host
