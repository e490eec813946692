// The levels above the block, each a barrier over whole blocks
// (barriers.cpp): the grid of a cooperative launch, the cluster (held by the
// cluster's slot, cluster_state.hpp), and the multi-device grid of a
// multi-device launch (its entry = the grid's first block + the block's rank
// in its grid). Here: what names each level in messages, where a block's
// entry is, and the kernel-side entry points.
#include <cstring>
#include <sstream>

#include "cohort/detail/host/cluster.hpp"
#include "cohort/detail/host/collectives/block_spans.hpp"
#include "cohort/detail/host/implicit_groups.hpp"
#include "cohort/detail/host/multi_grid.hpp"
#include "cohort/detail/host/runtime/sync_points.hpp"
#include "diagnostics/diagnostics.hpp"
#include "launch/block_runtime.hpp"
#include "launch/cluster_state.hpp"
#include "launch/launch_state.hpp"
#include "launch/loops_grid.hpp"
#include "launch/multi_grid_state.hpp"
#include "synchronization/level_barrier.hpp"

namespace cohort::detail::host {

uint3 block_index_of(const launch_state& launch, unsigned long long linear) {
  const dim3 g = launch.config.grid;
  return {static_cast<unsigned>(linear % g.x), static_cast<unsigned>(linear / g.x % g.y),
          static_cast<unsigned>(linear / (static_cast<unsigned long long>(g.x) * g.y))};
}

namespace {

std::string nothing_more(const block_runtime&) { return {}; }

std::string grid_block(const block_runtime& rt, unsigned long long entry) {
  return "block " + index_text(block_index_of(*rt.launch, entry));
}

std::string cluster_block(const block_runtime& rt, unsigned long long entry) {
  return "block " + index_text(rt.cluster->members[entry].block_index) + " of the same cluster";
}

std::string multi_grid_block(const block_runtime& rt, unsigned long long entry) {
  return multi_grid_block_name(*rt.launch->multi_grid, entry);
}

std::string multi_grid_place(const block_runtime& rt) {
  return multi_grid_place(*rt.launch->multi_grid, rt.launch->grid_rank);
}

}  // namespace

const barrier_level grid_level{"grid",
                               wait_kind::grid_barrier,
                               &thread_record::grid_arrival,
                               &block_barriers::grid,
                               {"grid.sync", nullptr, nullptr},
                               "every block of a cooperative launch",
                               "every block",
                               &grid_block,
                               &nothing_more};
const barrier_level cluster_level{"cluster",
                                  wait_kind::cluster_barrier,
                                  &thread_record::cluster_arrival,
                                  &block_barriers::cluster,
                                  {"cluster.sync", nullptr, nullptr},
                                  "every block of a cluster",
                                  "every block of a cluster",
                                  &cluster_block,
                                  &nothing_more};
const barrier_level multi_grid_level{"multi-grid",
                                     wait_kind::multi_grid_barrier,
                                     &thread_record::multi_grid_arrival,
                                     &block_barriers::multi_grid,
                                     {"multi_grid.sync", nullptr, nullptr},
                                     "every block of every grid of a multi-device launch",
                                     "every block of every grid",
                                     &multi_grid_block,
                                     &multi_grid_place};

void start_barriers(block_runtime& rt, unsigned long long linear_block) {
  block_barriers& bars = rt.barriers;
  bars.block = {};
  launch_state& launch = *rt.launch;
  // (A phased grid, loops_grid.hpp, counts its blocks' arrivals itself, a multi-device launch's too.)
  bars.grid.start(launch.cooperative && launch.grid_phases == nullptr ? &launch.grid : nullptr, linear_block);
  multi_grid_launch* mg = launch.multi_grid;
  bars.multi_grid.start(mg && launch.grid_phases == nullptr ? &mg->barrier : nullptr,
                        mg ? mg->first_block[launch.grid_rank] + linear_block : 0);
  cluster_launch& clusters = launch.clusters;
  if (!clusters.active()) {
    rt.cluster = nullptr;
    bars.cluster.start(nullptr, 0);
    return;
  }
  const dim3 shape = clusters.shape;
  const uint3 b = block_index_of(launch, linear_block);
  const unsigned long long cluster =
      (static_cast<unsigned long long>(b.z / shape.z) * clusters.grid.y + b.y / shape.y) * clusters.grid.x +
      b.x / shape.x;
  rt.cluster = &clusters.slots[cluster % clusters.slot_count];
  const unsigned rank = ((b.z % shape.z) * shape.y + b.y % shape.y) * shape.x + b.x % shape.x;
  if (launch.grid_phases != nullptr) {
    // A phased cluster (loops_grid.hpp) counts its blocks' arrivals itself and
    // has no slot: its blocks run one after another on one worker.
    rt.cluster = nullptr;
    bars.cluster.start(nullptr, rank);  // (the rank: the block's cluster.block_rank())
    return;
  }
  bars.cluster.start(&rt.cluster->barrier, rank);
  cluster_member& m = rt.cluster->members[rank];
  m.thread_pointer = reinterpret_cast<std::uintptr_t>(__builtin_thread_pointer());
  m.dynamic_shared = rt.dynamic_shared;
  m.block_index = b;
  m.state.store(member_state::running, std::memory_order_release);
}

void finish_barriers(block_runtime& rt) {
  if (rt.cluster != nullptr)
    rt.cluster->members[rt.barriers.cluster.rank].state.store(member_state::exited, std::memory_order_release);
  const auto exit_level = [](const level_part& part) {
    if (part.shared != nullptr) part.shared->block_exited(part.phases_arrived, part.rank);
  };
  exit_level(rt.barriers.grid);
  exit_level(rt.barriers.cluster);
  exit_level(rt.barriers.multi_grid);
}

void require_cooperative_grid_barrier(block_runtime& rt, std::source_location where) {
  if (!rt.cooperative) {
    fail_block(errc::not_cooperative,
               "grid barrier at " + site(where) + " " + position(*rt.launch, rt, *current_thread) +
                   ": the kernel was not launched cooperatively, so its blocks need not be co-resident and the "
                   "barrier could hang; launch it with " +
                   rt.launch->cooperative_call +
                   " (grid_group::is_valid() "
                   "tells a kernel which launch it got)");
  }
}

std::uint64_t grid_arrive(std::source_location where) {
  require_kernel("a grid barrier (grid_group::sync or barrier_arrive)", where);
  block_runtime& rt = current_runtime();
  require_cooperative_grid_barrier(rt, where);
  return level_arrive(rt, grid_level, where);
}

void grid_wait(std::uint64_t phase, std::source_location where) {
  require_kernel("grid_group::barrier_wait", where);
  level_wait(current_runtime(), grid_level, phase, where);
}

void grid_sync(std::source_location where) { grid_wait(grid_arrive(where), where); }

void require_cooperative(const char* collective, std::source_location where) {
  const block_runtime& rt = current_runtime();
  if (rt.cooperative) return;
  fail_block(errc::not_cooperative,
             "grid collective `" + std::string(collective) + "` at " + site(where) + " " +
                 position(*rt.launch, rt, *current_thread) +
                 ": the kernel was not launched cooperatively, so its blocks need not be co-resident and the "
                 "collective could hang; launch it with " +
                 rt.launch->cooperative_call +
                 " (grid_group::is_valid() "
                 "tells a kernel which launch it got)");
}

const grid_entry* grid_exchange(const collective_op& op, std::source_location site, const void* value,
                                std::size_t size) {
  return level_exchange(current_runtime(), grid_level, op, site, value, size);
}

// In a launch without clusters every cluster is one block: its barrier is
// the block's, and its exchange the block's own entry.
std::uint64_t cluster_arrive(std::source_location where) {
  block_runtime& rt = current_runtime();
  if (rt.cluster == nullptr) return block_arrive(where);
  return level_arrive(rt, cluster_level, where);
}

void cluster_wait(std::uint64_t phase, std::source_location where) {
  block_runtime& rt = current_runtime();
  if (rt.cluster == nullptr) return block_wait(phase, where);
  level_wait(rt, cluster_level, phase, where);
}

void cluster_sync(std::source_location where) { cluster_wait(cluster_arrive(where), where); }

const grid_entry* cluster_exchange(const collective_op& op, std::source_location site, const void* value,
                                   std::size_t size) {
  block_runtime& rt = current_runtime();
  if (rt.cluster == nullptr) {
    grid_entry& own = rt.solo_exchange;
    own.op = &op;
    own.site = site;
    std::memcpy(own.value, value, size);
    return &own;
  }
  return level_exchange(rt, cluster_level, op, site, value, size);
}

void require_multi_grid_barrier(block_runtime& rt, std::source_location where) {
  if (rt.launch->multi_grid == nullptr)
    fail_block(errc::not_cooperative,
               "multi-grid barrier at " + site(where) + " " + position(*rt.launch, rt, *current_thread) +
                   ": the kernel was not launched with cohort::launch_cooperative_multi_device, so there is "
                   "no multi-device grid to synchronize; launch it that way (multi_grid_group::is_valid() "
                   "tells a kernel which launch it got)");
}

void multi_grid_sync(std::source_location where) {
  block_runtime& rt = current_runtime();
  require_multi_grid_barrier(rt, where);
  level_wait(rt, multi_grid_level, level_arrive(rt, multi_grid_level, where), where);
}

}  // namespace cohort::detail::host
