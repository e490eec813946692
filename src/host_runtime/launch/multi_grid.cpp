// Multi-device cooperative launches on the host: every grid runs at once, a
// cooperative launch on its own virtual device, and all blocks of all grids
// meet at one barrier (the multi-grid level, levels.cpp; on the loops engine,
// the phases of one record over every grid's blocks, loops_grid.hpp). A grid that fails
// aborts the others; the launch reports the first error in grid order. As
// grid.sync(), multi_grid.sync() in a launch that was not a multi-device one
// is an error, and so is one that a block of any grid can never reach.
#include <algorithm>
#include <optional>
#include <sstream>
#include <thread>

#include "cohort/detail/host/implicit_groups.hpp"
#include "cohort/detail/host/multi_device_launch.hpp"
#include "cohort/detail/host/multi_grid.hpp"
#include "cohort/detail/messages.hpp"
#include "cohort/host/statistics.hpp"
#include "diagnostics/diagnostics.hpp"
#include "launch/block_runtime.hpp"
#include "launch/launch_state.hpp"
#include "launch/multi_grid_state.hpp"
#include "launch/virtual_devices.hpp"
#include "memory/memory_check.hpp"
#include "scheduling/runtime_tls.hpp"
#include "scheduling/worker_pool.hpp"

namespace cohort::detail::host {

namespace {

const multi_grid_launch* current_multi_grid() { return current_runtime().launch->multi_grid; }

[[noreturn]] void invalid_multi_device(const std::string& what) {
  throw error(errc::invalid_configuration, "multi-device cooperative launch: " + what);
}

}  // namespace

std::string multi_grid_block_name(const multi_grid_launch& mg, unsigned long long entry) {
  const auto grid = static_cast<unsigned>(std::upper_bound(mg.first_block.begin(), mg.first_block.end(), entry) -
                                          mg.first_block.begin() - 1);
  return "block " + std::to_string(entry - mg.first_block[grid]) + " of grid " + std::to_string(grid) + " (device " +
         std::to_string(mg.devices[grid]) + ")";
}

std::string multi_grid_place(const multi_grid_launch& mg, unsigned grid) {
  return " (grid " + std::to_string(grid) + ", device " + std::to_string(mg.devices[grid]) + ")";
}

bool multi_grid_valid() { return current_multi_grid() != nullptr; }

void* multi_grid_slot(unsigned grid) {
  block_runtime& rt = current_runtime();
  if (rt.launch->multi_grid == nullptr)
    fail_block(errc::not_cooperative, "a multi-grid collective " + position(*rt.launch, rt, *current_thread) +
                                          ": the kernel was not launched with cohort::launch_cooperative_multi_device");
  return rt.launch->multi_grid->slots[grid].data();
}

unsigned multi_grid_rank() { return current_multi_grid() ? current_runtime().launch->grid_rank : 0; }
unsigned multi_grid_count() { return current_multi_grid() ? current_multi_grid()->grids() : 1; }
unsigned long long multi_grid_first_thread() {
  const multi_grid_launch* mg = current_multi_grid();
  return mg ? mg->first_thread[current_runtime().launch->grid_rank] : 0;
}
unsigned long long multi_grid_thread_count() {
  const multi_grid_launch* mg = current_multi_grid();
  return mg ? mg->first_thread.back() : blocks_in_grid() * threads_per_block();
}

void launch_multi_device(const grid_launch* grids, unsigned count) {
  if (count == 0) invalid_multi_device("no grids were given; pass one launch per device");
  multi_grid_launch mg;
  unsigned long long blocks = 0, threads = 0;
  for (unsigned i = 0; i < count; ++i) {
    const grid_launch& g = grids[i];
    check_virtual_device(g.device);
    for (unsigned j = 0; j < i; ++j)
      if (grids[j].device == g.device)
        invalid_multi_device("grids " + std::to_string(j) + " and " + std::to_string(i) + " are both on device " +
                             std::to_string(g.device) + "; each device may run one grid of the launch");
    const launch_config& a = grids[0].config;
    if (!same_dim(g.config.grid, a.grid) || !same_dim(g.config.block, a.block) ||
        g.config.dynamic_shared_bytes != a.dynamic_shared_bytes)
      invalid_multi_device("grid " + std::to_string(i) + " is " + to_string(g.config.grid) + " x " +
                           to_string(g.config.block) + " with " + std::to_string(g.config.dynamic_shared_bytes) +
                           " bytes of dynamic shared memory, grid 0 " + to_string(a.grid) + " x " + to_string(a.block) +
                           " with " + std::to_string(a.dynamic_shared_bytes) +
                           "; every grid must have the same shape and shared memory");
    if (g.entry->kernel != grids[0].entry->kernel)
      invalid_multi_device("grid " + std::to_string(i) +
                           " runs another kernel than grid 0; every grid runs the same "
                           "kernel");
    mg.first_block.push_back(blocks);
    mg.first_thread.push_back(threads);
    mg.devices.push_back(g.device);
    blocks += volume(g.config.grid);
    threads += volume(g.config.grid) * volume(g.config.block);
  }
  mg.first_block.push_back(blocks);
  mg.first_thread.push_back(threads);
  mg.barrier.configure(&mg.aborted, every_block_has_a_core(blocks));
  mg.barrier.reset(blocks);
  mg.slots.resize(count);
  mg.phases.emplace(volume(grids[0].config.grid), count);
  // Raised here, not by whichever grid's launch looks first: on the loops
  // engine the grids' workers wait for each other's from the first phase on.
  raise_pending_memory_fault();
  std::vector<std::optional<error>> errors(count);
  std::vector<cohort::host::launch_statistics> statistics(count);
  run_on_threads(count, [&](unsigned i) {
    try {
      launch_grid_of(mg, i, *grids[i].entry, grids[i].config);
    } catch (const error& e) {
      errors[i] = e;
      mg.abort();
    }
    statistics[i] = cohort::host::last_launch_statistics();  // the grid's thread's
  });
  // The caller's: every grid's blocks, on the engine the grids chose (one kernel, one shape: the same).
  last_statistics = {0, 0, statistics.front().ran_on};
  for (const cohort::host::launch_statistics& grid : statistics)
    last_statistics.blocks += grid.blocks, last_statistics.fibers_started += grid.fibers_started;
  for (const auto& e : errors)
    if (e) throw *e;
}

}  // namespace cohort::detail::host
