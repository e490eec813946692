// What the grids of one multi-device cooperative launch share: the barrier
// over every block of every grid (entry = the grid's first block + the
// block's rank in its grid), where each grid's blocks and threads begin, an
// abort flag that a failing grid raises for all, and on the loops engine the
// phased record of every grid's blocks (loops_grid.hpp).
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "cohort/launch/launch_config.hpp"
#include "launch/loops_grid.hpp"
#include "synchronization/level_barrier.hpp"

namespace cohort::detail::host {

struct multi_grid_launch {
  level_barrier barrier;
  std::vector<unsigned long long> first_block;   // per grid, and the total at the end
  std::vector<unsigned long long> first_thread;  // per grid, and the total at the end
  std::vector<int> devices;
  std::vector<std::array<std::byte, 32>> slots;  // per grid: what multi-grid collectives publish
  std::atomic<bool> aborted{false};
  std::optional<loops_grid> phases;  // every grid's blocks, where the launch runs on the loops engine

  unsigned grids() const { return static_cast<unsigned>(devices.size()); }
  void abort() {
    aborted.store(true, std::memory_order_release);
    barrier.wake_all();
  }
};

// How messages name block `entry` of the launch ("block 1 of grid 1 (device
// 1)") and grid `grid`'s place (" (grid 0, device 0)").
std::string multi_grid_block_name(const multi_grid_launch& mg, unsigned long long entry);
std::string multi_grid_place(const multi_grid_launch& mg, unsigned grid);

struct kernel_entry;

// Runs grid `grid_rank` of a multi-device launch (src/host_runtime/launch/launch.cpp): a
// cooperative launch whose blocks also meet at the multi-grid barrier.
void launch_grid_of(multi_grid_launch& multi_grid, unsigned grid_rank, const kernel_entry& entry,
                    const launch_config& cfg);

}  // namespace cohort::detail::host
