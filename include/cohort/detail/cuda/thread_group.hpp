// thread_group on the CUDA backend: any group with its type erased. A kind tag
// says which group it was made from and a small payload carries what that
// group needs beyond the built-in variables: the grid its barrier handle, a
// tile its size, a coalesced group its lanes. tiled_partition(group, size)
// makes tiles of a size known at run time.
#pragma once

#include <cuda_runtime.h>

#include "cohort/detail/cuda/coalesced.hpp"
#include "cohort/detail/cuda/device_error.hpp"
#include "cohort/detail/cuda/tile_geometry.hpp"
#include "cohort/detail/cuda/wide_tile_barrier.hpp"
#include "cohort/detail/cuda/grid_barrier.hpp"
#include "cohort/groups/grid_group.hpp"
#include "cohort/groups/thread_block.hpp"
#include "cohort/detail/cuda/tiles.hpp"

namespace cohort {

class thread_group {
 public:
  enum class kind : unsigned char { thread_block, grid, tile, coalesced };

  __device__ thread_group(const thread_block&) : kind_(kind::thread_block), payload_{} {}
  __device__ thread_group(const grid_group& g) : kind_(kind::grid), payload_{detail::group_access::state(g)} {}
  template <unsigned N, class P>
  __device__ thread_group(const thread_block_tile<N, P>&) : kind_(kind::tile), payload_{.tile_size = N} {}
  __device__ thread_group(const coalesced_group& g)
      : kind_(kind::coalesced), payload_{.lanes = detail::gpu::coalesced_access::lanes(g)} {}

  __device__ void sync() const {
    switch (kind_) {
      case kind::grid:
        payload_.grid.sync();
        break;
      case kind::thread_block:
        thread_block::sync();
        break;
      case kind::tile:
        if (payload_.tile_size <= detail::gpu::warp_lanes)
          __syncwarp(detail::gpu::tile_lanes(payload_.tile_size));
        else
          detail::gpu::wide_tile_sync(payload_.tile_size);
        break;
      case kind::coalesced:
        __syncwarp(payload_.lanes);
        break;
    }
  }
  __device__ unsigned long long thread_rank() const {
    switch (kind_) {
      case kind::grid:
        return grid_group::thread_rank();
      case kind::thread_block:
        return thread_block::thread_rank();
      case kind::tile:
        return detail::gpu::block_rank() & (payload_.tile_size - 1);
      case kind::coalesced:
        return __popc(payload_.lanes & detail::gpu::lanes_below());
    }
    return 0;
  }
  __device__ unsigned long long num_threads() const {
    switch (kind_) {
      case kind::grid:
        return grid_group::num_threads();
      case kind::thread_block:
        return thread_block::num_threads();
      case kind::tile:
        return detail::gpu::tile_count(payload_.tile_size);
      case kind::coalesced:
        return __popc(payload_.lanes);
    }
    return 0;
  }
  __device__ unsigned long long size() const { return num_threads(); }
  __device__ kind get_type() const { return kind_; }

 private:
  friend __device__ thread_group tiled_partition(const thread_group& parent, unsigned tile_size);

  union payload {
    detail::gpu::grid_barrier grid;
    unsigned tile_size;
    unsigned lanes;
  };

  __device__ static thread_group tile(unsigned size) {
    thread_group g;
    g.kind_ = kind::tile;
    g.payload_.tile_size = size;
    return g;
  }
  thread_group() = default;

  kind kind_;
  payload payload_;
};

// Tiles of `tile_size` threads (a power of two up to 1024) of a block, a tile
// or a coalesced group. A block's last tile may be partial (as NVIDIA's
// dynamic partition has it); a tile's size must not exceed its parent tile's.
// A block's tiles wider than a warp are prepared as tiled_partition<N>
// prepares them, so that partition is a collective of the block.
__device__ inline thread_group tiled_partition(const thread_group& parent, unsigned tile_size) {
  detail::gpu::check_tile_size(tile_size);
  switch (parent.kind_) {
    case thread_group::kind::thread_block:
    case thread_group::kind::tile:
      if (parent.kind_ == thread_group::kind::tile && tile_size > parent.payload_.tile_size)
        detail::gpu::usage_trap("tiled_partition(thread_group, size): the tile size must divide the parent tile's size");
      if (tile_size > detail::gpu::warp_lanes && parent.kind_ == thread_group::kind::thread_block)
        detail::gpu::wide_tiles_prepare();
      return thread_group::tile(tile_size);
    case thread_group::kind::coalesced:
      return tiled_partition(detail::gpu::coalesced_access::make(parent.payload_.lanes, 0, 1), tile_size);
    case thread_group::kind::grid:
      break;
  }
  detail::gpu::usage_trap("tiled_partition of a grid_group: only thread blocks, tiles and coalesced groups can be "
                          "partitioned");
}

__device__ inline thread_group tiled_partition(const thread_block& parent, unsigned tile_size) {
  return tiled_partition(thread_group(parent), tile_size);
}

}  // namespace cohort
