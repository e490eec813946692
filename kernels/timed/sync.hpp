// The barriers `cohort bench sync` times — a block's, a tile's, the grid's —
// written once for any implementation of cooperative groups: a Groups class
// makes the groups and launches the kernels (cohort_groups below; NVIDIA's in
// the CUDA build's rivals), so that rivals run the very same kernels.
//
// Each kernel iteration stamps a slot, syncs, and checks a neighbour's stamp,
// so the barrier is verified in the run that times it. The slots alternate
// between two arrays: a stamp is overwritten only two barriers after it was
// written, by when its reader has read it, so one barrier per iteration
// suffices.
#pragma once

#include <algorithm>
#include <cstddef>
#include <functional>
#include <memory>
#include <numeric>
#include <string>
#include <tuple>
#include <vector>

#include <cohort/cohort.hpp>

#include "common/grid_size.hpp"

namespace cohort_kernels {

// The group whose barrier group_sync_kernel times: the block (Tile 0) or a
// tile of Tile threads.
template <class Groups, unsigned Tile>
__device__ auto barrier_group() {
  if constexpr (Tile == 0)
    return Groups::block();
  else
    return Groups::template tile<Tile>();
}

// Rank r of the group checks rank r + 1's stamp. Blocks are one-dimensional;
// dynamic shared memory: 2 unsigned per thread.
template <class Groups, unsigned Tile>
__global__ void group_sync_kernel(unsigned* mismatches, unsigned iterations) {
  const auto group = barrier_group<Groups, Tile>();
  unsigned* stamps = cohort::dynamic_shared<unsigned>();
  const unsigned rank = static_cast<unsigned>(group.thread_rank());
  const unsigned size = static_cast<unsigned>(group.num_threads());
  const unsigned neighbour = threadIdx.x - rank + (rank + 1) % size;
  unsigned wrong = 0;
  for (unsigned it = 1; it <= iterations; ++it) {
    unsigned* slots = stamps + (it % 2) * blockDim.x;
    slots[threadIdx.x] = it;
    group.sync();
    wrong += slots[neighbour] != it ? 1 : 0;
  }
  if (wrong) atomicAdd(mismatches, wrong);
}

// Block b's thread 0 checks block b + 1's stamp. stamps: 2 unsigned per block.
template <class Groups>
__global__ void grid_sync_kernel(unsigned* stamps, unsigned* mismatches, unsigned iterations) {
  const auto grid = Groups::grid();
  const auto b = static_cast<unsigned>(grid.block_rank());
  const auto blocks = static_cast<unsigned>(grid.num_blocks());
  const bool leader = Groups::block().thread_rank() == 0;
  unsigned wrong = 0;
  for (unsigned it = 1; it <= iterations; ++it) {
    unsigned* slots = stamps + (it % 2) * blocks;
    if (leader) slots[b] = it;
    grid.sync();
    if (leader) wrong += slots[(b + 1) % blocks] != it ? 1 : 0;
  }
  if (wrong) atomicAdd(mismatches, wrong);
}

// Block r of a cluster checks block r + 1's stamp, read through distributed
// shared memory. Dynamic shared memory: 2 unsigned.
template <class Groups>
__global__ void cluster_sync_kernel(unsigned* mismatches, unsigned iterations) {
  const auto cluster = Groups::cluster();
  unsigned* stamps = cohort::dynamic_shared<unsigned>();
  const unsigned* theirs =
      cluster.map_shared_rank(stamps, static_cast<int>((cluster.block_rank() + 1) % cluster.num_blocks()));
  const bool leader = threadIdx.x == 0;
  unsigned wrong = 0;
  for (unsigned it = 1; it <= iterations; ++it) {
    if (leader) stamps[it % 2] = it;
    cluster.sync();
    if (leader) wrong += theirs[it % 2] != it ? 1 : 0;
  }
  cluster.sync();  // no block leaves while its neighbour may still read its stamps
  if (wrong) atomicAdd(mismatches, wrong);
}

// As grid_sync_kernel, with the barrier of a multi-device launch over one
// grid per device (cohort's own: NVIDIA's CUDA 13 has none; the rivals' is the
// hand-written barrier NVIDIA's samples use instead). `handle` is what the
// implementation's multi-grid needs passed in (cohort's: nothing).
template <class Groups>
__global__ void multi_grid_sync_kernel(typename Groups::multi_grid_handle handle, unsigned* stamps,
                                       unsigned* mismatches, unsigned iterations) {
  const auto mg = Groups::multi_grid(handle);
  const auto grid = Groups::grid();
  const unsigned long long b = grid.block_rank(), blocks = grid.num_blocks();
  const bool leader = Groups::block().thread_rank() == 0;
  unsigned wrong = 0;
  for (unsigned it = 1; it <= iterations; ++it) {
    unsigned* slots = stamps + (it % 2) * blocks;
    if (leader) slots[b] = it;
    mg.sync();
    if (leader) wrong += slots[(b + 1) % blocks] != it ? 1 : 0;
  }
  if (wrong) atomicAdd(mismatches, wrong);
}

struct cohort_groups {
  static __device__ cohort::thread_block block() { return cohort::this_thread_block(); }
  template <unsigned N>
  static __device__ cohort::thread_block_tile<N> tile() {
    return cohort::tiled_partition<N>(cohort::this_thread_block());
  }
  static __device__ cohort::grid_group grid() { return cohort::this_grid(); }
  static __device__ cohort::cluster_group cluster() { return cohort::this_cluster(); }
  struct multi_grid_handle {};
  static __device__ cohort::multi_grid_group multi_grid(multi_grid_handle) { return cohort::this_multi_grid(); }

  template <auto Kernel, class... A>
  static void launch(const cohort::launch_config& config, A... args) {
    cohort::launch<Kernel>(config, args...);
  }
  template <auto Kernel, class... A>
  static void launch_cooperative(const cohort::launch_config& config, A... args) {
    cohort::launch_cooperative<Kernel>(config, args...);
  }
  // Grid i gets args_of(i), after the multi-grid's handle.
  template <auto Kernel, class ArgsOf>
  static void launch_multi_device(const std::vector<cohort::device_launch>& grids, cohort::multi_grid_memory memory,
                                  ArgsOf args_of) {
    cohort::launch_cooperative_multi_device(
        Kernel, grids, [&](unsigned i) { return std::tuple_cat(std::tuple{multi_grid_handle{}}, args_of(i)); }, memory);
  }
};

// Stale stamps, counted on each device a plan's kernels run on.
class stale_stamps {
 public:
  explicit stale_stamps(const std::vector<int>& devices) {
    const int caller = cohort::get_device();
    for (const int d : devices) {
      cohort::set_device(d);
      counts_.push_back(std::make_unique<cohort::device_buffer<unsigned>>(1));
      counts_.back()->fill(0);
    }
    cohort::set_device(caller);
  }
  // The counter of the plan's i-th device.
  unsigned* on(std::size_t i) const { return counts_[i]->data(); }
  unsigned total() const {
    unsigned sum = 0;
    for (const auto& c : counts_) sum += c->to_host()[0];
    return sum;
  }

 private:
  std::vector<std::unique_ptr<cohort::device_buffer<unsigned>>> counts_;
};

// A barrier kernel planned for one block size.
struct sync_plan {
  std::string launch;
  // Why the variant cannot run at this block size on this device; empty when it can.
  std::string unavailable;
  // One launch running `iterations` barriers, adding its stale stamps to `stale`.
  std::function<void(unsigned iterations)> run;
  std::shared_ptr<stale_stamps> stale = std::make_shared<stale_stamps>(std::vector<int>{cohort::get_device()});
};

struct sync_variant {
  std::string name;
  // A tile's size, which must divide the block's: with a partial last tile
  // the row would time another barrier at some block sizes. 0: any size.
  unsigned tile = 0;
  sync_plan (*plan)(unsigned threads);

  bool fits(unsigned threads) const { return tile == 0 || threads % tile == 0; }
};

// One block per SM, all running at once: each block's barriers in parallel.
template <class Groups, unsigned Tile>
sync_plan plan_group_sync(unsigned threads) {
  const unsigned blocks = static_cast<unsigned>(cohort::get_device_properties().multiprocessor_count);
  const cohort::launch_config config{blocks, threads, 2 * threads * sizeof(unsigned)};
  sync_plan plan{cohort_kernels::launch_text(blocks, threads), {}, {}};
  plan.run = [config, stale = plan.stale](unsigned iterations) {
    Groups::template launch<group_sync_kernel<Groups, Tile>>(config, stale->on(0), iterations);
  };
  return plan;
}

// A grid barrier's cost grows with the blocks it waits for: it is timed over
// a block per SM and over every block that can be resident.
enum class grid_extent { block_per_sm, resident };

template <class Groups, grid_extent Extent>
sync_plan plan_grid_sync(unsigned threads) {
  const unsigned resident =
      static_cast<unsigned>(cohort::max_cooperative_grid(grid_sync_kernel<Groups>, static_cast<int>(threads)));
  const unsigned sms = static_cast<unsigned>(cohort::get_device_properties().multiprocessor_count);
  // Occupancy may hold fewer blocks than SMs (large blocks, small SMs).
  const unsigned blocks = Extent == grid_extent::resident ? resident : std::min(sms, resident);
  auto stamps = std::make_shared<cohort::device_buffer<unsigned>>(2 * std::size_t{blocks});
  stamps->fill(0);
  const cohort::launch_config config{blocks, threads};
  sync_plan plan{cohort_kernels::launch_text(blocks, threads) + " cooperative", {}, {}};
  plan.run = [config, stamps, stale = plan.stale](unsigned iterations) {
    Groups::template launch_cooperative<grid_sync_kernel<Groups>>(config, stamps->data(), stale->on(0), iterations);
  };
  return plan;
}

// Every cluster of Size blocks that can be resident at once, each syncing on its own.
template <class Groups, unsigned Size>
sync_plan plan_cluster_sync(unsigned threads) {
  cohort::launch_config config{dim3(Size), dim3(threads), 2 * sizeof(unsigned)};
  config.cluster = dim3(Size);
  const unsigned clusters = static_cast<unsigned>(cohort::max_active_clusters(cluster_sync_kernel<Groups>, config));
  config.grid = dim3(clusters * Size);
  sync_plan plan{
      cohort_kernels::launch_text(clusters * Size, threads) + " in clusters of " + std::to_string(Size), {}, {}};
  if (clusters == 0) {
    plan.unavailable = "no cluster of " + std::to_string(Size) + " blocks of " + std::to_string(threads) +
                       " threads can be resident on this device (its blocks must be resident at once)";
    return plan;
  }
  plan.run = [config, stale = plan.stale](unsigned iterations) {
    Groups::template launch<cluster_sync_kernel<Groups>>(config, stale->on(0), iterations);
  };
  return plan;
}

// A grid on every device, in one multi-device launch, its barrier in `Memory`;
// run() returns once every device has finished.
template <class Groups, grid_extent Extent, cohort::multi_grid_memory Memory>
sync_plan plan_multi_grid_sync(unsigned threads) {
  const auto kernel = multi_grid_sync_kernel<Groups>;
  const unsigned resident = static_cast<unsigned>(cohort::max_cooperative_grid(kernel, static_cast<int>(threads)));
  const unsigned sms = static_cast<unsigned>(cohort::get_device_properties().multiprocessor_count);
  const unsigned blocks = Extent == grid_extent::resident ? resident : std::min(sms, resident);
  const int caller = cohort::get_device();
  std::vector<int> devices(static_cast<std::size_t>(cohort::device_count()));
  std::iota(devices.begin(), devices.end(), 0);
  std::vector<std::shared_ptr<cohort::device_buffer<unsigned>>> stamps;
  std::vector<cohort::device_launch> grids;
  for (const int d : devices) {
    cohort::set_device(d);
    stamps.push_back(std::make_shared<cohort::device_buffer<unsigned>>(2 * std::size_t{blocks}));
    stamps.back()->fill(0);
    grids.push_back({d, {dim3(blocks), dim3(threads)}});
  }
  cohort::set_device(caller);
  sync_plan plan{cohort_kernels::launch_text(blocks, threads) + " on " + std::to_string(devices.size()) +
                     " device(s), barrier memory " + cohort::to_string(Memory),
                 {},
                 {},
                 std::make_shared<stale_stamps>(devices)};
  plan.run = [grids, stamps, stale = plan.stale, caller](unsigned iterations) {
    Groups::template launch_multi_device<multi_grid_sync_kernel<Groups>>(
        grids, Memory, [&](unsigned i) { return std::tuple{stamps[i]->data(), stale->on(i), iterations}; });
    for (const cohort::device_launch& g : grids) {
      cohort::set_device(g.device);
      cohort::device_synchronize();
    }
    cohort::set_device(caller);
  };
  return plan;
}

template <class Groups, unsigned Tile>
sync_variant tile_sync(const std::string& prefix) {
  return {prefix + "tile-sync-" + std::to_string(Tile), Tile, &plan_group_sync<Groups, Tile>};
}

// The barriers of one implementation, named with prefix: the block, a tile of
// 32 (a warp on CUDA), a tile of several warps, clusters of 2 and 8 blocks,
// the grid at a block per SM and at full occupancy, and a grid on every device
// (at a block per SM and at full occupancy) meeting in the first device's
// memory (with peer access; pinned host memory without) and in pinned host memory.
template <class Groups>
std::vector<sync_variant> sync_variants(const std::string& prefix) {
  return {{prefix + "block-sync", 0, &plan_group_sync<Groups, 0>},
          tile_sync<Groups, 32>(prefix),
          tile_sync<Groups, 128>(prefix),
          {prefix + "cluster-sync-2", 0, &plan_cluster_sync<Groups, 2>},
          {prefix + "cluster-sync-8", 0, &plan_cluster_sync<Groups, 8>},
          {prefix + "grid-sync-sm", 0, &plan_grid_sync<Groups, grid_extent::block_per_sm>},
          {prefix + "grid-sync-full", 0, &plan_grid_sync<Groups, grid_extent::resident>},
          {prefix + "multi-grid-sync-sm", 0,
           &plan_multi_grid_sync<Groups, grid_extent::block_per_sm, cohort::multi_grid_memory::automatic>},
          {prefix + "multi-grid-sync-full", 0,
           &plan_multi_grid_sync<Groups, grid_extent::resident, cohort::multi_grid_memory::automatic>},
          {prefix + "multi-grid-sync-sm-pinned", 0,
           &plan_multi_grid_sync<Groups, grid_extent::block_per_sm, cohort::multi_grid_memory::pinned_host>},
          {prefix + "multi-grid-sync-full-pinned", 0,
           &plan_multi_grid_sync<Groups, grid_extent::resident, cohort::multi_grid_memory::pinned_host>}};
}

}  // namespace cohort_kernels
