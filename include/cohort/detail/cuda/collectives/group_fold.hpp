// Which implementation each group takes for the collectives of reduce.hpp,
// scan.hpp and invoke.hpp: tiles of up to 32 threads and coalesced groups
// stay in their warp, tiles wider than a warp and blocks fold over whole
// warps through shared memory, and the grid exchanges block totals through
// its barrier slot.
#pragma once

#include <cuda_runtime.h>

#include <type_traits>

#include "cohort/detail/cuda/collectives/fold.hpp"
#include "cohort/detail/cuda/collectives/grid_fold.hpp"
#include "cohort/detail/cuda/tiles/wide_tile_barrier.hpp"
#include "cohort/groups/coalesced_group.hpp"
#include "cohort/groups/grid_group.hpp"
#include "cohort/groups/thread_block.hpp"
#include "cohort/groups/thread_block_tile.hpp"

namespace cohort::detail::gpu {

template <class G>
inline constexpr bool is_collective_group = false;
template <unsigned Size, class P>
inline constexpr bool is_collective_group<thread_block_tile<Size, P>> = true;
template <>
inline constexpr bool is_collective_group<coalesced_group> = true;
template <>
inline constexpr bool is_collective_group<thread_block> = true;
template <>
inline constexpr bool is_collective_group<grid_group> = true;

// Groups the collectives accept: tiles, coalesced groups, blocks and grids.
template <class G>
concept collective_group = is_collective_group<std::remove_cvref_t<G>>;

struct block_sync {
  __device__ void operator()() const { __syncthreads(); }
};
template <unsigned Size>
struct wide_tile_sync_of {
  __device__ void operator()() const { wide_tile_sync(Size); }
};

template <fold_kind Kind, unsigned Size, class P, class T, class Op, class Update>
__device__ T fold(const thread_block_tile<Size, P>&, const T& v, Op& op, Update& update) {
  if constexpr (Size <= warp_lanes)
    return fold_segment<Kind, Size>(tile_segment<Size>(), v, op, update);
  else
    return fold_warps<Kind>(tile_span(Size), broadcast_area(Size, tile_base(Size)), wide_tile_sync_of<Size>{}, v, op,
                            update);
}

template <fold_kind Kind, class T, class Op, class Update>
__device__ T fold(const coalesced_group& g, const T& v, Op& op, Update& update) {
  return fold_coalesced<Kind>(coalesced_access::lanes(g), v, op, update);
}

template <fold_kind Kind, class T, class Op, class Update>
__device__ T fold(const thread_block&, const T& v, Op& op, Update& update) {
  return fold_warps<Kind>(block_span(), broadcast_area(1024, 0), block_sync{}, v, op, update);
}

template <fold_kind Kind, class T, class Op, class Update>
__device__ T fold(const grid_group& g, const T& v, Op& op, Update& update) {
  return fold_grid<Kind>(g, v, op, update);
}

}  // namespace cohort::detail::gpu

// Clusters take their own path, over the blocks' totals in distributed shared memory.
#include "cohort/detail/cuda/collectives/cluster_fold.hpp"
