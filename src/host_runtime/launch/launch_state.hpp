// The runtime's one record of a launch: what all its blocks share: the
// kernel, its configuration, the grid barrier's shared half, the clusters'
// slots, and the error the launch reports.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <limits>
#include <mutex>
#include <optional>
#include <string>

#include "cohort/detail/host/launch.hpp"
#include "cohort/errors.hpp"
#include "diagnostics/kernel_exit.hpp"
#include "launch/cluster_state.hpp"
#include "launch/multi_grid_state.hpp"
#include "launch/settings.hpp"  // copy_checking
#include "races/race_log.hpp"
#include "synchronization/level_barrier.hpp"

namespace cohort::detail::host {

struct launch_state;
struct loops_grid;
// The index of the launch's block `linear` (x fastest).
uint3 block_index_of(const launch_state& launch, unsigned long long linear);

struct launch_state {
  const kernel_entry* entry = nullptr;
  launch_config config;
  bool cooperative = false;
  const char* cooperative_call = "cohort::launch_cooperative(...)";  // what diagnostics name (cooperative_launch_named)
  unsigned warp_size = 32;
  unsigned long long block_count = 0;
  std::optional<std::uint64_t> shuffle_seed;       // COHORT_SCHEDULE=shuffle:SEED
  copy_checking copy_checks = copy_checking::off;  // COHORT_CHECK
  bool memory_checks = false;                      // COHORT_CHECK=memory
  race_log races;                                  // COHORT_CHECK=races
  std::chrono::nanoseconds watchdog{0};            // COHORT_WATCHDOG: how long a spin may see no change

  std::atomic<unsigned long long> next_block{0};
  std::atomic<unsigned long long> fibers_started{0};
  std::atomic<bool> aborted{false};
  level_barrier grid;  // a cooperative launch's
  cluster_launch clusters;
  multi_grid_launch* multi_grid = nullptr;  // set in a multi-device launch
  loops_grid* grid_phases = nullptr;        // set where the loops engine runs the grid in phases (loops_grid.hpp)
  unsigned grid_rank = 0;

  std::mutex error_mutex;
  std::optional<error> first_error;
  // exit() called by a kernel thread: the launch stops, and the launching
  // thread ends the process with the status asked for (kernel_exit.hpp).
  std::optional<kernel_exit_request> exit_request;
  // The lowest-numbered block that failed (of a launch that is not cooperative).
  std::atomic<unsigned long long> lowest_failed_block{std::numeric_limits<unsigned long long>::max()};

  // Whether a worker should still run block `block` of a launch that is not cooperative.
  bool worth_running(unsigned long long block) const {
    return block < block_count && block < lowest_failed_block.load(std::memory_order_relaxed);
  }

  // Records block `block`'s error and stops the other blocks. A cooperative
  // launch keeps the first error: a later one may be its consequence (a
  // failed block leaves the grid barrier unreachable). The blocks of other
  // launches are independent, so the lowest-numbered failing block's error is
  // kept, and blocks below it still run: the report is the same from run to
  // run however the workers interleave the blocks.
  void fail(errc kind, const std::string& message, unsigned long long block) {
    {
      std::lock_guard lock(error_mutex);
      const bool keep = cooperative ? !first_error : block < lowest_failed_block.load(std::memory_order_relaxed);
      if (keep) {
        first_error.emplace(kind, message);
        lowest_failed_block.store(block, std::memory_order_relaxed);
      }
    }
    stop();
  }
  // Records the first exit() a kernel thread called, and stops the blocks.
  void request_exit(int status, const std::string& message, unsigned long long block) {
    {
      std::lock_guard lock(error_mutex);
      if (!exit_request) exit_request.emplace(kernel_exit_request{status, message});
      if (block < lowest_failed_block.load(std::memory_order_relaxed))
        lowest_failed_block.store(block, std::memory_order_relaxed);
    }
    stop();
  }
  // fail() for when no memory is left to word a message: a copy of an error
  // made in advance allocates nothing.
  void fail_without_memory(unsigned long long block) {
    static const error out_of_memory(errc::out_of_memory,
                                     "the host ran out of memory inside a kernel (std::bad_alloc while reporting an "
                                     "error); reduce the launch's size or free memory");
    {
      std::lock_guard lock(error_mutex);
      if (!first_error) {
        first_error.emplace(out_of_memory);
        lowest_failed_block.store(block, std::memory_order_relaxed);
      }
    }
    stop();
  }

 private:
  // Every block waiting at a barrier wakes and finds the launch aborted.
  void stop() {
    aborted.store(true, std::memory_order_release);
    grid.wake_all();
    clusters.wake_all();
    if (multi_grid) multi_grid->abort();
  }
};

}  // namespace cohort::detail::host
