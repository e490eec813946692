// What all blocks of one launch share: the kernel, its configuration, the
// grid barrier, and the first error any block raised.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>

#include "cohort/errors.hpp"
#include "cohort/host/launch.hpp"
#include "grid_barrier.hpp"

namespace cohort::host::detail {

// memcpy_async's checking mode (COHORT_CHECK): off, on with destinations
// guarded by page protection, or on with the poison alone.
enum class copy_checking : unsigned char { off, guarded, poisoned };

struct launch_state {
  const kernel_entry* entry = nullptr;
  launch_config config;
  bool cooperative = false;
  unsigned warp_size = 32;
  unsigned long long block_count = 0;
  std::optional<std::uint64_t> shuffle_seed;       // COHORT_SCHEDULE=shuffle:SEED
  copy_checking copy_checks = copy_checking::off;  // COHORT_CHECK

  std::atomic<unsigned long long> next_block{0};
  std::atomic<unsigned long long> fibers_started{0};
  std::atomic<bool> aborted{false};
  grid_barrier grid;
  bool grid_may_spin = false;  // every block has a core: waiting at the grid barrier spins before sleeping

  std::mutex error_mutex;
  std::optional<error> first_error;

  // Records the launch's error (the first one wins) and stops the other blocks.
  void fail(errc kind, const std::string& message) {
    {
      std::lock_guard lock(error_mutex);
      if (!first_error) first_error.emplace(kind, message);
    }
    aborted.store(true, std::memory_order_release);
    grid.wake_all();
  }
};

}  // namespace cohort::host::detail
