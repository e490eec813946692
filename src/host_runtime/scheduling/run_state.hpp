// A thread's and a block's run state: what each state means, the transitions
// a thread may make, and the functions that make them. Every change of a
// thread's wait_kind goes through move_to, which asserts (debug and
// sanitizer builds, runtime_assert.hpp) that the table below allows it; a
// block enters and leaves the worker's record through enter_block and
// leave_block. docs/life-of-a-block.md tells the whole story.
//
// The fields themselves lie in the records kernel code reads
// (include/cohort/detail/host/runtime/state.hpp: thread_record::waiting,
// block_record's counts), extended by the scheduler's (scheduler.hpp) and the
// other mechanisms' parts (block_runtime.hpp); this header owns their changes.
#pragma once

#include <array>
#include <cstddef>
#include <source_location>

#include "cohort/detail/host/runtime/state.hpp"
#include "diagnostics/runtime_assert.hpp"

namespace cohort::detail::host {

// A thread's states (wait_kind, state.hpp). A thread not yet started
// (rank >= next_unstarted) has none; the running thread has none; a started
// thread that has none and is not running has exited (an exit writes
// nothing: a thread of a streak never has its record written at all).
//
//   none                running, exited, or not started
//   runnable            woken, waiting to be resumed: in the ready queue or
//                       in the barrier queue's released range
//   block_barrier       parked at the block barrier, its fiber in the
//                       barrier queue (scheduler.hpp)
//   grid_barrier,       parked at a level's barrier, waiting for the other
//   cluster_barrier,    blocks of the grid, cluster or multi-device grid
//   multi_grid_barrier  (barriers.cpp, levels.cpp)
//   collective          parked in a warp or tile collective's rendezvous
//                       (rendezvous.cpp)
//   converge            in coalesced_threads(), until its warp settles
//                       (converge.cpp)
//
// The transitions a thread makes, and who makes them:
//
//   none -> runnable             a spinning thread yields to the others (spin_yield)
//   none -> any parked state     the running thread parks (park, enter_barrier_queue, converge)
//   converge -> converge         a lane that announced itself in coalesced_threads() (so that
//                                its warp's check counts it) finds the warp unsettled and parks
//   any parked state -> runnable woken: its barrier, level or rendezvous completed, its lanes
//                                formed a group (scheduled_block::wake); a block barrier's
//                                released threads, under shuffle or while lanes converge
//                                (reorder_released, watch_parks)
//   runnable -> none             resumed (resume_ready, resume_released)
//   block_barrier -> none        released and resumed straight from the barrier queue
//   converge -> none             its lanes' group formed at its own arrival (form_groups)
//   any other -> none            a failed block's thread, unwound (unwind_waiting_threads,
//                                abandon_block, a fault's escape to the worker)
//
// Not allowed, each a fault of the runtime's: none -> none (a thread resumed
// that did not wait), runnable -> runnable (a thread woken twice: queued
// twice, it would run twice), a parked or runnable thread parking again (it
// is not running), a thread parked at one place moving to another.
inline constexpr std::size_t wait_kinds = 8;
static_assert(static_cast<std::size_t>(wait_kind::converge) + 1 == wait_kinds, "a new wait_kind needs its row here");

// transitions[from][to]: whether a thread moves from `from` to `to`.
inline constexpr auto transitions = [] {
  using enum wait_kind;
  std::array<std::array<bool, wait_kinds>, wait_kinds> allowed{};
  const auto allow = [&allowed](wait_kind from, wait_kind to) {
    allowed[static_cast<std::size_t>(from)][static_cast<std::size_t>(to)] = true;
  };
  for (wait_kind parked : {block_barrier, grid_barrier, cluster_barrier, multi_grid_barrier, collective, converge}) {
    allow(none, parked);
    allow(parked, runnable);
    allow(parked, none);
  }
  allow(none, runnable);
  allow(runnable, none);
  allow(converge, converge);
  return allowed;
}();

constexpr bool allowed_transition(wait_kind from, wait_kind to) {
  return transitions[static_cast<std::size_t>(from)][static_cast<std::size_t>(to)];
}

// The state's name, as the enum spells it.
const char* wait_kind_name(wait_kind k);

// A transition the table refuses: says which, for which thread, where; aborts.
[[noreturn]] void illegal_transition(const thread_record& t, wait_kind to, std::source_location where);

// The one way a thread's state changes. In a Release build, the store alone.
[[gnu::always_inline]] inline void move_to(thread_record& t, wait_kind to,
                                           std::source_location where = std::source_location::current()) {
  if constexpr (runtime_checks) {
    if (!allowed_transition(t.waiting, to)) [[unlikely]]
      illegal_transition(t, to, where);
  }
  t.waiting = to;
}

// Whether every started thread of `b` is running or gone: none waits, none is
// queued. So it is between blocks, after a failed block's threads unwound.
inline bool no_thread_waits(const block_record& b) {
  for (unsigned i = 0; i < b.next_unstarted; ++i)
    if (b.threads[i].waiting != wait_kind::none) return false;
  return true;
}

// The worker's record `b` now holds a block, started (start_block): kernel
// code on this OS thread reads it through current_block.
inline void enter_block(block_record& b) {
  COHORT_ASSERT(current_block == nullptr, "a block entered while the worker still holds another");
  COHORT_ASSERT(b.parked == 0 && b.next_unstarted == 0 && b.live == b.thread_count,
                "a block entered with threads already started");
  current_block = &b;
}

// The worker's record `b` is done with its block: no thread of it waits
// (a failed block's were unwound), and this OS thread runs no kernel code
// until the next enter_block: what kernel code would read is the no-kernel page.
inline void leave_block(const block_record& b) {
  COHORT_ASSERT(current_block == &b, "a block left that the worker does not hold");
  COHORT_ASSERT(no_thread_waits(b), "a block left with threads still waiting");
  current_block = nullptr;
  current_thread = nullptr;
  current_position = &no_kernel.position;
}

}  // namespace cohort::detail::host
