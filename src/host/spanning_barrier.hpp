// A barrier over whole blocks beyond the grid's: a cluster's, or a
// multi-device launch's over every block of every grid. A block arrives once
// its last live thread has (as at the grid barrier); the shared count is a
// grid_barrier instance, so that a block that exits before arriving makes the
// phases it missed unreachable, an error of the launch rather than a hang.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <source_location>
#include <string>
#include <vector>

#include "cohort/detail/host/collective.hpp"
#include "cohort/detail/host/state.hpp"
#include "grid_barrier.hpp"

namespace cohort::detail::host {

struct block_runtime;

// What differs between the levels: how threads wait, where a thread keeps its
// arrival, and how messages name the barrier.
struct spanning_level {
  wait_kind waiting;
  std::uint64_t thread_record::*arrival;
  const char* barrier_name;  // "cluster barrier"
  collective_op sync_op;     // what a block's entry names while it syncs
};

// A block's part in one such barrier.
struct spanning_part {
  grid_barrier* barrier = nullptr;  // none: the level is not in this launch
  unsigned long long rank = 0;      // the block's entry in the barrier
  unsigned arrived = 0;
  std::uint64_t phases_arrived = 0;
  std::uint64_t phases_released = 0;
  std::source_location site{};
  const thread_record* first = nullptr;
  std::vector<thread_record*> waiters;

  void start(grid_barrier* shared, unsigned long long entry);
};

std::uint64_t spanning_arrive(block_runtime& rt, spanning_part& part, const spanning_level& level,
                              std::source_location where);
void spanning_wait(block_runtime& rt, spanning_part& part, const spanning_level& level, std::uint64_t phase,
                   std::source_location where);
void spanning_thread_exit(block_runtime& rt, spanning_part& part, const spanning_level& level, thread_record& thread);
// Main's part when the block's threads wait at this barrier: blocks the OS
// thread until the phase completes or `aborted` is raised. `unreachable` words the error for a block
// that exited before arriving (given the waiting thread). None when this
// barrier is not what the block waits for.
std::optional<bool> resolve_spanning_stall(block_runtime& rt, spanning_part& part, const std::atomic<bool>& aborted,
                                           bool may_spin,
                                           std::string (*unreachable)(const block_runtime&, const thread_record&));

}  // namespace cohort::detail::host
