// Scheduling a block's threads: each runs on a pooled fiber, all of them on
// the OS thread that runs the block. A thread that must wait parks and hands
// the OS thread directly to the next runnable fiber (a released thread, or a
// fresh runner for threads not yet started); the worker's own stack ("main")
// gets control back only when no fiber can run, and decides (worker.cpp): the
// block is done, it waits at a barrier above the block, or it is deadlocked.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <random>
#include <source_location>
#include <string>
#include <vector>

#include "cohort/detail/host/runtime/state.hpp"
#include "cohort/detail/host/runtime/thread_loop.hpp"
#include "cohort/errors.hpp"
#include "fibers/fiber.hpp"
#include "scheduling/run_state.hpp"

namespace cohort::detail::host {

struct launch_state;
struct worker_context;

// The fibers of the threads parked at the block barrier, in the order they
// parked: [head, released) were released from the phase before and are
// resumed in that order straight from here, [parked, tail) wait at the
// current phase. A barrier's threads thus resume without a scheduler round
// trip (no ready queue, no search through the block's records): the parking
// thread appends its fiber and switches to `head`. The two ranges take turns
// in two buffers of the block's thread count: when a phase completes, every
// thread released from the one before has resumed already (each had yet to
// arrive at the phase), so the buffer they used is free for the next phase's
// arrivals. A parked fiber names its thread (fiber::parked_thread).
struct barrier_queue {
  using entry = fiber*;
  entry* head = nullptr;
  entry* released = nullptr;
  entry* parked = nullptr;
  entry* tail = nullptr;
  std::vector<entry> buffers;  // the two buffers, one after the other
  entry* second = nullptr;     // the second buffer
  const fiber* filled_for = nullptr;

  // Each buffer is followed by `lookahead` entries more, and every entry is
  // a live fiber: a switch prefetches the stack of the fiber `lookahead`
  // entries after the one it resumes without checking that one is there (a
  // stale one costs a useless prefetch).
  static constexpr int lookahead = 2;
  // Empties the queue, with room for `threads` threads per buffer. Entries
  // are refilled with `filler` when the buffers grow or the fibers they may
  // name (`fibers`, the block's array of them) have moved.
  void start(unsigned threads, fiber* filler, const fiber* fibers) {
    const std::size_t each = std::size_t{threads} + lookahead;
    if (2 * each > buffers.size() || fibers != filled_for) {
      buffers.assign(std::max(2 * each, buffers.size()), filler);
      filled_for = fibers;
    }
    second = buffers.data() + buffers.size() / 2;
    head = released = buffers.data();
    parked = tail = second;
  }
  bool has_released() const { return head != released; }
  // Threads woken elsewhere (a warp collective's lanes, a level barrier's
  // waiters) are released through the queue too while it holds none: the
  // buffer the released threads used is free then, and no phase can
  // complete while the woken ones are still to resume (they have yet to
  // arrive at it), so release() finds them all resumed, as it finds its own.
  // Returns where to write them; release_to(end) ends the written range.
  entry* idle_buffer() { return parked == second ? buffers.data() : second; }
  void release_to(entry* end) {
    head = idle_buffer();
    released = end;
  }
  // The current phase's threads become the released ones; the next phase's
  // park in the other buffer.
  void release() {
    head = parked;
    released = tail;
    parked = tail = parked == second ? buffers.data() : second;
  }
};

// A block as the scheduler sees it: the kernel-visible record, its fibers and
// what can run next. The runtime's record of the block (block_runtime.hpp)
// extends it with the other mechanisms' parts. The fields a barrier's switch
// reads come first, next to the kernel-visible ones.
//
// Runnable threads come from two places: the ready queue (threads woken from
// a collective, a level's barrier, a spin-wait), and the block barrier's
// released threads, resumed in the order they parked from the barrier queue.
struct scheduled_block : block_record {
  fiber* running = nullptr;  // the fiber executing now
  barrier_queue barrier;
  std::size_t ready_head = 0;
  std::vector<thread_record*> ready;
  bool failed = false;
  bool shuffling = false;         // COHORT_SCHEDULE=shuffle
  bool unguarded_stacks = false;  // a fiber of the block runs on a stack without a guard page
  // Set while a switch or a park must look further than the barrier queue:
  // threads in the ready queue, a park hook, an unguarded stack (one test on
  // a barrier's path for all three). update_attention() keeps it.
  bool attention = false;
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

  // Makes `count` waiting threads runnable, in the order
  // for_each_waiter(queue) passes them to `queue` (shuffled under
  // COHORT_SCHEDULE=shuffle). Through the barrier queue where it is idle
  // (idle_buffer), so that they resume as released threads do: switch_away's
  // first choice without attention, and the collectives' fast path's. A
  // collective's completion writes its lanes there as it walks them, with no
  // list in between.
  template <class ForEach>
  void wake(unsigned count, ForEach&& for_each_waiter) {
    parked -= count;
    if (!shuffling && ready.empty() && on_park == nullptr && !barrier.has_released()) [[likely]] {
      barrier_queue::entry* e = barrier.idle_buffer();
      for_each_waiter([&e](thread_record& t) {
        move_to(t, wait_kind::runnable);
        t.home->parked_thread = &t;
        *e++ = t.home;
      });
      barrier.release_to(e);
      return;
    }
    const std::size_t from = ready.size();
    for_each_waiter([this](thread_record& t) {
      move_to(t, wait_kind::runnable);
      ready.push_back(&t);
    });
    if (shuffling) std::shuffle(ready.begin() + static_cast<std::ptrdiff_t>(from), ready.end(), *shuffle);
    update_attention();
  }
  // Releases the threads waiting at the block barrier's current phase.
  void release_barrier() {
    parked -= static_cast<unsigned>(barrier.tail - barrier.parked);
    if (shuffling || on_park != nullptr) [[unlikely]]
      reorder_released();
    barrier.release();
  }
  // Sets on_park; released threads not yet resumed are marked runnable.
  void watch_parks(void (*hook)(scheduled_block&, const thread_record&));
  void stop_watching_parks() {
    on_park = nullptr;
    update_attention();
  }
  // Queues `t`, parked on its home fiber, to run.
  void make_ready(thread_record& t) {
    ready.push_back(&t);
    attention = true;
  }
  // Takes the ready queue's next thread (attention says there may be one).
  thread_record* take_ready() {
    if (ready_head == ready.size()) return nullptr;
    thread_record* const next = ready[ready_head++];
    if (ready_head == ready.size()) {
      ready.clear();
      ready_head = 0;
      update_attention();
    }
    return next;
  }
  void update_attention() { attention = ready_head < ready.size() || on_park != nullptr || unguarded_stacks; }
  // A thread that fails on its way into the block barrier (no stack for the
  // next runner, its stack overflowed in the switch) is unwound, or left,
  // where it stands: main must not resume it from the barrier's queue.
  void drop_failed_from_queue() {
    if (barrier.tail != barrier.parked && barrier.tail[-1] == running) --barrier.tail;
  }
  // Whether some thread can run now.
  bool others_ready() const { return ready_head < ready.size() || barrier.has_released(); }
  // Forgets the threads that could run (a failed block's, unwound by main).
  void clear_runnable() {
    ready.clear();
    ready_head = 0;
    barrier.start(thread_count, &main, fibers.data());
    update_attention();
  }

 private:
  // Under COHORT_SCHEDULE=shuffle, the threads being released are shuffled;
  // while lanes converge (on_park), they are marked runnable.
  void reorder_released();
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
// Called on top of a parked fiber of a failed block (switch_fiber_calling):
// unwinds its frames.
[[noreturn]] void unwind_on_top(ctx::transfer_t t);
// A new fiber with a stack from the pool, for a runner; nullptr when no stack
// could be mapped, with the block failed.
fiber* add_runner(scheduled_block& b);
// A fiber for a runner: the worker's next unused one, else a new one.
// A stack without a guard page marks the block, whose switches then check
// the stack pointer.
inline fiber* start_runner(scheduled_block& b) {
  fiber* f = b.fibers_used < b.fibers.size() ? &b.fibers[b.fibers_used++] : add_runner(b);
  if (f != nullptr && !f->stack.guarded) [[unlikely]] {
    b.unguarded_stacks = true;
    b.attention = true;
  }
  return f;
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

// How a fiber hands the OS thread to the next: switch_fiber, or leave_fiber
// for a runner that is never resumed.
using fiber_switch = void (*)(fiber& from, fiber& to);

// Switches from `self` to the block barrier's next released thread (the
// queue holds one). What the resumed thread would do first is done here, so
// that it has nothing left to do (park_at_block_barrier).
template <fiber_switch Switch = switch_fiber>
[[gnu::always_inline]] inline void resume_released(scheduled_block& b, fiber& self) {
  const barrier_queue::entry* const e = b.barrier.head++;
  // The fibers after it are likely next, their stacks a miss each when a
  // block's fibers outgrow the cache: prefetched a few switches ahead, a
  // stack is in cache when its turn comes. (The fibers themselves lie in
  // order in one array, which the hardware prefetches.)
  const fiber& ahead = *e[barrier_queue::lookahead];
  __builtin_prefetch(ahead.context);
  // Its record too, which the switch to it will write (waiting, below).
  __builtin_prefetch(ahead.parked_thread, 1);
  fiber& next = **e;
  thread_record& t = *next.parked_thread;
  move_to(t, wait_kind::none);
  set_running(t);
  b.running = &next;
  Switch(self, next);
}

// Switches from `self` to `t`, a thread of the ready queue parked on its home
// fiber, made the running thread here, as resume_released does, so that `t`
// has nothing left to do once resumed (park).
template <fiber_switch Switch = switch_fiber>
[[gnu::always_inline]] inline void resume_ready(scheduled_block& b, fiber& self, thread_record& t) {
  fiber& next = *t.home;
  move_to(t, wait_kind::none);
  set_running(t);
  b.running = &next;
  Switch(self, next);
}

// Leaves the running fiber (or main) for the next runnable one: a queued
// thread, else a released one, else a fresh runner for unstarted threads,
// else main. Inlined into the parking paths, so that a barrier is one frame
// between the kernel and the switch.
[[gnu::always_inline]] inline void switch_away(scheduled_block& b) {
  fiber& self = *b.running;
  if (b.attention) [[unlikely]] {
    if (b.unguarded_stacks) check_unguarded_stack(b, self);
    if (thread_record* const next = b.take_ready()) return resume_ready(b, self, *next);
  }
  if (b.barrier.has_released())
    resume_released(b, self);
  else
    switch_to_runner_or_main(b, self);
}

// Parks the current thread `t` of block `b` until another wakes it. Whoever
// resumes it makes it the running thread (resume_ready), and a failed block's
// main unwinds it where it waits (unwind_on_top), so that it returns from the
// switch with nothing to do: a collective's last call is the switch.
//
// record_park is its first half: what the diagnostics read and the fiber to
// resume it on recorded; returns that fiber, the running one.
[[gnu::always_inline]] inline fiber& record_park(scheduled_block& b, thread_record& t, wait_kind kind,
                                                 std::source_location where, std::uint64_t phase) {
  move_to(t, kind);
  t.wait_site = where;
  t.wait_phase = phase;
  fiber& self = *b.running;
  t.home = &self;
  ++b.parked;
  return self;
}
[[gnu::always_inline]] inline void park(scheduled_block& b, thread_record& t, wait_kind kind,
                                        std::source_location where, std::uint64_t phase) {
  record_park(b, t, kind, where, phase);
  if (b.attention && b.on_park != nullptr) [[unlikely]]
    b.on_park(b, t);
  switch_away(b);
}

// Parks the current thread `t` at the block barrier's current phase, at the
// barrier queue's tail, until released and resumed from there. Its record
// keeps what the diagnostics read (waiting, wait_site); its fiber is in the
// queue. Whoever resumes it makes it the running thread (switch_away), and a
// failed block's main unwinds it from the queue (unwind_on_top), so that it
// has nothing to do once resumed: the switch is the last call of a barrier,
// which returns from it straight into kernel code.
//
// enter_barrier_queue is its first half: the thread recorded waiting and its
// fiber appended to the queue.
[[gnu::always_inline]] inline fiber& enter_barrier_queue(scheduled_block& b, thread_record& t,
                                                         std::source_location where) {
  move_to(t, wait_kind::block_barrier);
  t.wait_site = where;
  ++b.parked;
  fiber& self = *b.running;
  self.parked_thread = &t;
  *b.barrier.tail++ = &self;
  return self;
}
[[gnu::always_inline]] inline void park_at_block_barrier(scheduled_block& b, thread_record& t,
                                                         std::source_location where) {
  enter_barrier_queue(b, t, where);
  if (b.attention && b.on_park != nullptr) [[unlikely]]
    b.on_park(b, t);
  switch_away(b);
}
inline void park(wait_kind kind, std::source_location where, std::uint64_t phase) {
  park(current_scheduled(), *current_thread, kind, where, phase);
}

}  // namespace cohort::detail::host
