// Scheduling a block's threads: each runs on a pooled fiber, all of them on
// the OS thread that runs the block. A thread that must wait parks and hands
// the OS thread directly to the next runnable fiber (a released thread, or a
// fresh runner for threads not yet started); the worker's own stack ("main")
// gets control back only when no fiber can run, and decides (worker.cpp): the
// block is done, it waits at a barrier above the block, or it is deadlocked.
#pragma once

#include <cstdint>
#include <memory>
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
// what can run next. The runtime's record of the block (block_runtime.hpp)
// extends it with the other mechanisms' parts. The fields a barrier's switch
// reads come first, next to the kernel-visible ones.
//
// Runnable threads come from two places: the ready queue, and a released
// barrier's threads, resumed in rank order straight from their records (the
// barrier's threads park in rank order, and run in it again, without being
// listed anywhere). Those are parked with `released_kind` at `released_phase`
// until resumed; COHORT_SCHEDULE=shuffle and converging lanes, which need each
// waiting thread marked runnable, take the ready queue instead.
struct scheduled_block : block_record {
  fiber* running = nullptr;  // the fiber executing now
  std::size_t ready_head = 0;
  std::vector<thread_record*> ready;
  thread_record* released_next = nullptr;  // the next record to look at
  unsigned released_left = 0;              // released threads not yet resumed
  std::uint64_t released_phase = 0;
  wait_kind released_kind = wait_kind::none;
  bool failed = false;
  bool shuffling = false;  // COHORT_SCHEDULE=shuffle
  // Called for a thread about to park while set: the collectives set it
  // (watch_parks) while lanes wait in coalesced_threads(), which a parking
  // lane may complete.
  void (*on_park)(scheduled_block&, const thread_record&) = nullptr;
  launch_state* launch = nullptr;
  worker_context* worker = nullptr;  // the OS thread's, which holds this
  stack_pool* stacks = nullptr;      // the worker's, for runners' stacks
  fiber main;
  // The worker's runner fibers, kept with their stacks from block to block
  // (a block's runners are all over when it ends, run to the end or
  // abandoned): the block's first `fibers_used` run it. Reserved to the
  // thread count before a block starts, so that addresses stay put.
  std::vector<fiber> fibers;
  std::size_t fibers_used = 0;
  std::unique_ptr<std::mt19937_64> shuffle;  // made for the first shuffled block

  // Makes the waiting threads runnable, in order (shuffled under COHORT_SCHEDULE=shuffle).
  void wake(std::vector<thread_record*>& waiters);
  // Makes runnable the `count` threads parked with `kind` at `phase`.
  void release(wait_kind kind, std::uint64_t phase, unsigned count) {
    parked -= count;
    if (shuffling || on_park != nullptr || released_left != 0 || count == 0) [[unlikely]] {
      queue_released(kind, phase, count);
      return;
    }
    released_next = threads;
    released_left = count;
    released_phase = phase;
    released_kind = kind;
  }
  // Sets on_park; released threads not yet resumed are queued, marked runnable.
  void watch_parks(void (*hook)(scheduled_block&, const thread_record&));
  // Whether some thread can run now.
  bool others_ready() const { return ready_head < ready.size() || released_left != 0; }
  // Forgets the threads that could run (a failed block's, unwound by main).
  void clear_runnable() {
    ready.clear();
    ready_head = 0;
    released_left = 0;
  }

 private:
  void queue_released(wait_kind kind, std::uint64_t phase, unsigned count);
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

// switch_away's less usual cases: an unguarded stack to check, and no thread
// to resume (a fresh runner for unstarted threads, else main).
void check_unguarded_stack(scheduled_block& b, const fiber& self);
void switch_to_runner_or_main(scheduled_block& b, fiber& self);

// Leaves the running fiber (or main) for the next runnable one: a queued
// thread, else a released one, else a fresh runner for unstarted threads,
// else main. Inlined into the parking paths, so that a barrier is one frame
// between the kernel and the switch.
[[gnu::always_inline]] inline void switch_away(scheduled_block& b) {
  fiber& self = *b.running;
  if (!self.stack.guarded) [[unlikely]]
    check_unguarded_stack(b, self);
  thread_record* next;
  if (!b.ready.empty()) {  // emptied once the head reaches its end
    next = b.ready[b.ready_head++];
    if (b.ready_head == b.ready.size()) {
      b.ready.clear();
      b.ready_head = 0;
    }
  } else if (b.released_left != 0) {
    next = b.released_next;
    while (next->waiting != b.released_kind || next->wait_phase != b.released_phase) ++next;
    b.released_next = next + 1;
    --b.released_left;
    // The threads after it are likely next, each a chain of misses (its
    // record, its fiber, its stack) when a block's fibers outgrow the cache:
    // started a few switches ahead, the chain is in cache when its turn comes.
    // (A prefetch never faults; a fiber is followed only where it is known to be parked there.)
    constexpr int ahead = 3;  // switches between the steps
    if (next + 3 * ahead < b.threads + b.thread_count) [[likely]] {
      __builtin_prefetch(next + 3 * ahead);
      __builtin_prefetch(next[2 * ahead].home);
      const thread_record& soon = next[ahead];
      if (soon.waiting == b.released_kind && soon.wait_phase == b.released_phase)
        __builtin_prefetch(soon.home->context);
    }
  } else {
    switch_to_runner_or_main(b, self);
    return;
  }
  b.running = next->home;
  switch_fiber(self, *next->home);
}

// Parks the current thread `t` of block `b` until another wakes it.
[[gnu::always_inline]] inline void park(scheduled_block& b, thread_record& t, wait_kind kind,
                                        std::source_location where, std::uint64_t phase) {
  t.waiting = kind;
  t.wait_site = where;
  t.wait_phase = phase;
  t.home = b.running;
  ++b.parked;
  if (b.on_park != nullptr) [[unlikely]]
    b.on_park(b, t);
  switch_away(b);
  set_running(t);
  t.waiting = wait_kind::none;
  b.running = t.home;
  if (b.failed) [[unlikely]]
    throw fiber_unwind{};  // resumed only to unwind
}
inline void park(wait_kind kind, std::source_location where, std::uint64_t phase) {
  park(current_scheduled(), *current_thread, kind, where, phase);
}

}  // namespace cohort::detail::host
