// The primitive behind invoke_one and invoke_one_broadcast on the CUDA
// backend, invoke_once(group, call), on tiles, coalesced groups, thread
// blocks and (in a cooperative launch) the grid.
// As on the host backend (docs/collectives.md) the function runs once, after
// every member has arrived and before any leaves. Inside a warp the caller is
// chosen by elect.sync on sm_90 (one instruction, NVIDIA's choice there) and
// is the lowest lane elsewhere; blocks, wide tiles and the grid use rank 0.
// The broadcast form hands the result to every member by shuffle, through the
// group's shared broadcast area, or through the grid's exchange space.
#pragma once

#include <cuda_runtime.h>

#include <type_traits>
#include <utility>

#include "cohort/detail/cuda/collectives/fold_scratch.hpp"
#include "cohort/detail/cuda/collectives/grid_fold.hpp"
#include "cohort/detail/cuda/collectives/group_fold.hpp"
#include "cohort/detail/cuda/tiles/shuffle.hpp"

namespace cohort::detail::gpu {

// The lane that runs the function among `lanes` (which hold the caller).
__device__ __forceinline__ unsigned elect(unsigned lanes) {
#if __CUDA_ARCH__ >= 900
  unsigned leader;
  asm volatile(
      "{\n\t"
      ".reg .pred elected;\n\t"
      "elect.sync %0|elected, %1;\n\t"
      "}"
      : "=r"(leader)
      : "r"(lanes));
  return leader;
#else
  return __ffs(static_cast<int>(lanes)) - 1;
#endif
}

template <class Call>
using call_result = std::invoke_result_t<Call&>;

// A group inside one warp: `lanes` are its members that exist (elect.sync
// waits for every lane it names).
template <class Call>
__device__ call_result<Call> invoke_in_warp(unsigned lanes, Call& call) {
  __syncwarp(lanes);
  const unsigned leader = elect(lanes);
  if constexpr (std::is_void_v<call_result<Call>>) {
    if (lane_id() == leader) call();
    __syncwarp(lanes);
  } else {
    call_result<Call> result{};
    if (lane_id() == leader) result = call();
    return shfl_idx(lanes, result, leader);
  }
}

// A group of whole warps: rank 0 calls between the group's two syncs, and the
// result travels through the group's broadcast area (fold_scratch.hpp).
template <class Sync, class Call>
__device__ call_result<Call> invoke_in_warps(const Sync& sync, unsigned rank, unsigned* area, Call& call) {
  sync();
  if constexpr (std::is_void_v<call_result<Call>>) {
    if (rank == 0) call();
    sync();
  } else {
    call_result<Call> result{};
    if (rank == 0) put_words(area, result = call());
    sync();
    return get_words(area, result);
  }
}

template <class Call>
__device__ call_result<Call> invoke_on_grid(const grid_group& grid, Call& call) {
  grid.sync();
  if constexpr (std::is_void_v<call_result<Call>>) {
    if (grid.thread_rank() == 0) call();
    grid.sync();
  } else {
    call_result<Call> result{};
    if (grid.thread_rank() == 0) result = call();
    return broadcast_from_grid_leader(grid, result);
  }
}

template <unsigned Size, class P, class Call>
__device__ call_result<Call> invoke_once(const thread_block_tile<Size, P>&, Call& call) {
  if constexpr (Size <= warp_lanes)
    return invoke_in_warp(tile_lanes(Size) & existing_lanes(), call);
  else
    return invoke_in_warps(wide_tile_sync_of<Size>{}, block_rank() & (Size - 1), broadcast_area(Size, tile_base(Size)),
                           call);
}

template <class Call>
__device__ call_result<Call> invoke_once(const coalesced_group& g, Call& call) {
  return invoke_in_warp(coalesced_access::lanes(g), call);
}

template <class Call>
__device__ call_result<Call> invoke_once(const thread_block&, Call& call) {
  return invoke_in_warps(block_sync{}, block_rank(), broadcast_area(1024, 0), call);
}

template <class Call>
__device__ call_result<Call> invoke_once(const grid_group& g, Call& call) {
  return invoke_on_grid(g, call);
}

}  // namespace cohort::detail::gpu
