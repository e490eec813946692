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
#include <string>
#include <vector>

#include <cohort/cohort.hpp>

#include "common/grid_size.hpp"

namespace cohort_cli {

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
  const unsigned long long b = grid.block_rank();
  const unsigned long long blocks = grid.num_blocks();
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

struct cohort_groups {
  static __device__ cohort::thread_block block() { return cohort::this_thread_block(); }
  template <unsigned N>
  static __device__ cohort::thread_block_tile<N> tile() {
    return cohort::tiled_partition<N>(cohort::this_thread_block());
  }
  static __device__ cohort::grid_group grid() { return cohort::this_grid(); }

  template <auto Kernel, class... A>
  static void launch(const cohort::launch_config& config, A... args) {
    cohort::launch<Kernel>(config, args...);
  }
  template <auto Kernel, class... A>
  static void launch_cooperative(const cohort::launch_config& config, A... args) {
    cohort::launch_cooperative<Kernel>(config, args...);
  }
};

// A barrier kernel planned for one block size.
struct sync_plan {
  std::string launch;
  // One launch running `iterations` barriers; stale stamps are added to *mismatches.
  std::function<void(unsigned* mismatches, unsigned iterations)> run;
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
  return {cohort_examples::launch_text(blocks, threads), [config](unsigned* mismatches, unsigned iterations) {
            Groups::template launch<group_sync_kernel<Groups, Tile>>(config, mismatches, iterations);
          }};
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
  return {cohort_examples::launch_text(blocks, threads) + " cooperative",
          [config, stamps](unsigned* mismatches, unsigned iterations) {
            Groups::template launch_cooperative<grid_sync_kernel<Groups>>(config, stamps->data(), mismatches,
                                                                          iterations);
          }};
}

template <class Groups, unsigned Tile>
sync_variant tile_sync(const std::string& prefix) {
  return {prefix + "tile-sync-" + std::to_string(Tile), Tile, &plan_group_sync<Groups, Tile>};
}

// The barriers of one implementation, named with prefix: the block, a tile of
// 32 (a warp on CUDA), a tile of several warps, the grid at a block per SM and
// at full occupancy.
template <class Groups>
std::vector<sync_variant> sync_variants(const std::string& prefix) {
  return {{prefix + "block-sync", 0, &plan_group_sync<Groups, 0>},
          tile_sync<Groups, 32>(prefix),
          tile_sync<Groups, 128>(prefix),
          {prefix + "grid-sync-sm", 0, &plan_grid_sync<Groups, grid_extent::block_per_sm>},
          {prefix + "grid-sync-full", 0, &plan_grid_sync<Groups, grid_extent::resident>}};
}

}  // namespace cohort_cli
