// Runs one block: its threads on pooled fibers, all on the calling OS thread.
// A thread that must wait parks and hands the OS thread directly to the next
// runnable fiber (a released thread, or a fresh runner for threads not yet
// started); the worker's own stack ("main") gets control back only when no
// fiber can run, and decides: the block is done, it waits for the grid
// barrier, or it is deadlocked.
#pragma once

#include <csetjmp>
#include <optional>
#include <cstdint>
#include <random>
#include <source_location>
#include <string>
#include <vector>

#include "async_copy.hpp"
#include "cluster_state.hpp"
#include "cohort/errors.hpp"
#include "cohort/detail/host/state.hpp"
#include "cohort/detail/host/thread_loop.hpp"
#include "fiber.hpp"
#include "rendezvous.hpp"

namespace cohort::detail::host {

struct launch_state;
struct worker_context;

struct block_runtime {
  block_record record{};
  launch_state* launch = nullptr;
  worker_context* worker = nullptr;  // the OS thread's, which holds this
  fiber main;
  // The worker's runner fibers, kept with their stacks from block to block
  // (a block's runners are all over when it ends, run to the end or
  // abandoned): the block's first `fibers_used` run it. Reserved to the
  // thread count before a block starts, so that addresses stay put.
  std::vector<fiber> fibers;
  std::size_t fibers_used = 0;
  std::vector<thread_record*> ready;
  std::size_t ready_head = 0;
  bool failed = false;
  std::mt19937_64 shuffle;
  bool shuffling = false;
  bool arrivals_recorded = false;  // some thread_record holds an arrival

  // __syncthreads / thread_block barrier of the current phase.
  unsigned barrier_arrived = 0;
  std::uint64_t barrier_phase = 0;
  std::source_location barrier_site{};
  const thread_record* barrier_first = nullptr;
  std::vector<thread_record*> barrier_waiters;

  // Arrivals of this block's threads at the grid barrier.
  unsigned grid_arrived = 0;
  std::uint64_t grid_phases_arrived = 0;   // grid phases this block has arrived at
  std::uint64_t grid_phases_released = 0;  // grid phases known complete
  std::source_location grid_site{};
  const thread_record* grid_first = nullptr;
  std::vector<thread_record*> grid_waiters;

  // The block's cluster, and its part in the cluster's and the multi-grid's barriers.
  cluster_part cluster;
  spanning_part multi_grid;

  // Warp collectives and coalesced groups.
  collective_state collectives;
  // memcpy_async's copies in flight, in the checking mode.
  copy_state copies;

  // Makes the waiting threads runnable, in order (shuffled under COHORT_SCHEDULE=shuffle).
  void wake(std::vector<thread_record*>& waiters);
};

// The block of the running thread, its counts settled: every entry from
// kernel code into the runtime goes through here.
inline block_runtime& current_runtime() {
  block_record& b = *current_block;
  settle_streak(b);
  return *b.runtime;
}

// Entry of every runner fiber: runs unstarted threads until none is left.
void runner_main(ctx::transfer_t t);
// A new fiber with a stack from the pool, for a runner; nullptr when no stack
// could be mapped, with the block failed.
fiber* add_runner(block_runtime& rt);
// A fiber for a runner: the worker's next unused one, else a new one.
inline fiber* start_runner(block_runtime& rt) {
  if (rt.fibers_used < rt.fibers.size()) return &rt.fibers[rt.fibers_used++];
  return add_runner(rt);
}
// An unguarded stack's overflow, found at a switch: fails the block.
[[noreturn]] void overflowed_unguarded(block_runtime& rt);
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
inline void switch_away(block_runtime& rt) {
  fiber& self = *rt.record.running;
  if (!self.stack.guarded && self.stack.base &&
      self.stack.overflowed_unguarded(reinterpret_cast<std::uintptr_t>(__builtin_frame_address(0))))
    overflowed_unguarded(rt);
  if (rt.ready_head < rt.ready.size()) {
    thread_record* t = rt.ready[rt.ready_head++];
    if (rt.ready_head == rt.ready.size()) {
      rt.ready.clear();
      rt.ready_head = 0;
    }
    rt.record.running = t->home;
    switch_fiber(self, *t->home);
  } else if (rt.record.next_unstarted < rt.record.thread_count && !rt.failed) {
    fiber* runner = start_runner(rt);
    if (!runner) {
      if (&self == &rt.main) return;  // main finds the block failed
      abandon_block();
    }
    rt.record.running = runner;
    start_fiber(self, *runner, &runner_main);
  } else {
    rt.record.running = &rt.main;
    switch_fiber(self, rt.main);
  }
}

// Parks the current thread `t` of block `rt` until another wakes it.
inline void park(block_runtime& rt, thread_record& t, wait_kind kind, std::source_location where,
                 std::uint64_t phase) {
  t.waiting = kind;
  t.wait_site = where;
  t.wait_phase = phase;
  t.home = rt.record.running;
  ++rt.record.parked;
  if (rt.collectives.converging_total != 0) lane_settled(rt, t);
  switch_away(rt);
  current_thread = &t;
  t.waiting = wait_kind::none;
  rt.record.running = t.home;
  if (rt.failed) throw fiber_unwind{};  // resumed only to unwind
}
inline void park(wait_kind kind, std::source_location where, std::uint64_t phase) {
  park(current_runtime(), *current_thread, kind, where, phase);
}

// Runs a block to its end on the calling OS thread; returns the fibers it started.
std::size_t run_block(launch_state& launch, unsigned long long linear_block);
// After a worker's last block of a launch: its fibers' stacks go back to its
// pool, and those beyond its share of what the process keeps are unmapped.
void trim_worker_stacks();

// The levels above the grid's barrier (clusters, the multi-device grid):
// src/host/outer_levels.cpp.
void start_outer_levels(block_runtime& rt, unsigned long long linear_block);
std::optional<bool> resolve_outer_stall(block_runtime& rt);
void finish_outer_levels(block_runtime& rt);
void outer_levels_thread_exit(block_runtime& rt, thread_record& thread);

}  // namespace cohort::detail::host
