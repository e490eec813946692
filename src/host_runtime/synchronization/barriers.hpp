// A block's barriers: the block barrier (all of its threads on one OS
// thread), and the block's half of the barriers over whole blocks, one
// mechanism for every level (the grid, the cluster, the multi-device grid)
// whose shared half is a level_barrier (level_barrier.hpp). All are counted
// and phase-tagged and follow CUDA's sm_70+ rule: a thread that has exited no
// longer counts, so a barrier completes once every live thread has arrived.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <source_location>
#include <string>
#include <vector>

#include "cohort/detail/host/collectives/collective.hpp"
#include "cohort/detail/host/collectives/grid_exchange.hpp"
#include "cohort/detail/host/runtime/state.hpp"

namespace cohort::detail::host {

struct block_runtime;
class level_barrier;

// The block barrier (__syncthreads, thread_block::sync) of the current phase.
// Its threads park in the scheduler's barrier queue (scheduler.hpp), which
// resumes them once released. A thread that arrives and waits in one call
// (sync) is only counted: it cannot exit or arrive again before the phase
// completes. One that arrives alone (barrier_arrive) records its arrival, so
// that its exit can take it back and a second arrival is caught.
struct block_barrier {
  unsigned arrived = 0;
  unsigned split_arrivals = 0;  // of `arrived`, those made by barrier_arrive
  std::uint64_t phase = 0;
  std::source_location site{};
  const thread_record* first = nullptr;
};

// A block's half of one level's barrier. A block arrives once its last live
// thread has; an arrival can carry a value (level_exchange).
struct level_part {
  level_barrier* shared = nullptr;  // none: the level is not in this launch
  unsigned long long rank = 0;      // the block's entry in the shared barrier
  unsigned arrived = 0;             // the block's threads that have arrived at the current phase
  std::uint64_t phases_arrived = 0;
  std::uint64_t phases_released = 0;
  std::source_location site{};
  const thread_record* first = nullptr;
  // The block's threads waiting at the level, with the phase each waits for,
  // kept here too so that finding the released ones reads this array alone,
  // not a record per thread (cold by then in a grid of more blocks than cores).
  struct waiter {
    thread_record* thread;
    std::uint64_t phase;
  };
  std::vector<waiter> waiters;

  void start(level_barrier* barrier, unsigned long long entry);
};

struct block_barriers {
  block_barrier block;
  bool arrivals_recorded = false;  // some thread_record holds an arrival
  level_part grid, cluster, multi_grid;
};

// What differs between the levels: how threads wait, where a thread keeps its
// arrival, and how messages name the level and its blocks.
struct barrier_level {
  const char* name;  // "grid": the grid barrier, grid collectives
  wait_kind waiting;
  std::uint64_t thread_record::* arrival;
  level_part block_barriers::* part;
  collective_op sync_op;  // what a block's entry names while it syncs ("grid.sync")
  const char* reach;      // who must reach every barrier: "every block of a cooperative launch"
  const char* callers;    // who must call the same collectives: "every block"
  // The block holding entry `entry`: "block (1,0,0)", "block (1,0,0) of the same cluster".
  std::string (*block_name)(const block_runtime& rt, unsigned long long entry);
  // More about the calling block's place, after its position: " (grid 0, device 0)", or "".
  std::string (*place)(const block_runtime& rt);
};

extern const barrier_level grid_level, cluster_level, multi_grid_level;

// The block barrier's entry points are sync_points.hpp's block_arrive/wait/sync.

// A level's barrier, its phases counted per block.
std::uint64_t level_arrive(block_runtime& rt, const barrier_level& level, std::source_location where);
void level_wait(block_runtime& rt, const barrier_level& level, std::uint64_t phase, std::source_location where);
// A barrier_wait on a token an earlier wait spent (sync_points.hpp).
[[noreturn, gnu::cold]] void fail_spent_token(const block_runtime& rt, const char* barrier, std::source_location where);
// A level collective's exchange: a phase of the level's barrier whose arrival
// carries `value` (at most max_exchange_bytes). Made by one thread for the
// block, while every other thread of the block waits in the collective.
// Returns every block's entry, by rank; raises the launch's error for a block
// in another collective, or one that exited.
const grid_entry* level_exchange(block_runtime& rt, const barrier_level& level, const collective_op& op,
                                 std::source_location site, const void* value, std::size_t size);

// The worker's hooks (worker.cpp).
// A new block: no arrivals, its levels those of `rt.launch`.
void start_barriers(block_runtime& rt, unsigned long long linear_block);
// An exiting thread no longer counts; its arrivals at phases in progress are taken back.
void barriers_on_exit(block_runtime& rt, thread_record& thread);
// Main's part when no fiber can run and threads wait at a level: blocks the OS
// thread until that phase completes (true: threads were released) or the
// launch fails (false: the block is over). None when no level can release
// anything: the block is deadlocked.
std::optional<bool> resolve_barrier_stall(block_runtime& rt);
// The block has left the kernel: levels it has not arrived at become unreachable.
void finish_barriers(block_runtime& rt);

}  // namespace cohort::detail::host
