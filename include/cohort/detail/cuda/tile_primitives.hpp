// The CUDA backend's primitives under thread_block_tile and a tile's
// thread_group (include/cohort/groups/): where a tile lies in its block
// (tile_geometry.hpp) and its lane operations. Tiles of up to 32 threads are
// one warp's lanes on the *_sync intrinsics (warp_tile_ops.hpp); wider ones,
// beyond NVIDIA, have the same collectives through shared memory
// (wide_tile_ops.hpp). The call site the shared class passes is empty here.
#pragma once

#include <cuda_runtime.h>

#include <type_traits>

#include "cohort/backend.hpp"
#include "cohort/detail/cuda/runtime/device_error.hpp"
#include "cohort/detail/cuda/tiles/tile_geometry.hpp"
#include "cohort/detail/cuda/tiles/warp_tile_ops.hpp"
#include "cohort/detail/cuda/tiles/wide_tile_barrier.hpp"
#include "cohort/detail/cuda/tiles/wide_tile_ops.hpp"

namespace cohort::detail::gpu {

__device__ __forceinline__ unsigned tile_rank(unsigned size) { return block_rank() & (size - 1); }

__device__ __forceinline__ void tile_sync(unsigned size, call_site) {
  if (size <= warp_lanes)
    __syncwarp(tile_lanes(size));
  else
    wide_tile_sync(size);
}

template <unsigned Size>
struct tile_ops {
  using lane_ops = std::conditional_t<(Size <= warp_lanes), warp_tile_ops<Size>, wide_tile_ops<Size>>;
  using mask_type = tile_mask_t<Size>;

  __device__ __forceinline__ static void sync(call_site) { lane_ops::sync(); }

  template <class Value>
  __device__ __forceinline__ static Value shfl(const Value& var, unsigned src_rank, call_site) {
    return lane_ops::shfl(var, src_rank);
  }
  template <class Value>
  __device__ __forceinline__ static Value shfl_up(const Value& var, unsigned delta, call_site) {
    return lane_ops::shfl_up(var, delta);
  }
  template <class Value>
  __device__ __forceinline__ static Value shfl_down(const Value& var, unsigned delta, call_site) {
    return lane_ops::shfl_down(var, delta);
  }
  template <class Value>
  __device__ __forceinline__ static Value shfl_xor(const Value& var, unsigned lane_mask, call_site) {
    return lane_ops::shfl_xor(var, lane_mask);
  }
  __device__ __forceinline__ static int any(int predicate, call_site) { return lane_ops::any(predicate); }
  __device__ __forceinline__ static int all(int predicate, call_site) { return lane_ops::all(predicate); }
  __device__ __forceinline__ static mask_type ballot(int predicate, call_site) { return lane_ops::ballot(predicate); }
  template <class Value>
  __device__ __forceinline__ static mask_type match_any(const Value& val, call_site) {
    return lane_ops::match_any(val);
  }
  template <class Value>
  __device__ __forceinline__ static mask_type match_all(const Value& val, int& pred, call_site) {
    return lane_ops::match_all(val, pred);
  }
};

// A block's tiles wider than a warp share barriers that their partition
// prepares, so that partition is a collective of the block (wide_tile_barrier.hpp).
__device__ __forceinline__ void prepare_block_tiles(unsigned size) {
  if (size > warp_lanes) wide_tiles_prepare();
}

__device__ inline void check_tile_size(unsigned size, call_site) {
  if (size == 0 || size > 1024 || (size & (size - 1)) != 0)
    usage_trap("tiled_partition: a tile size is a power of two from 1 to 1024");
}
__device__ inline void check_tile_of_tile(unsigned size, unsigned parent_size, call_site) {
  if (size > parent_size)
    usage_trap("tiled_partition(thread_group, size): the tile size must divide the parent tile's size");
}
[[noreturn]] __device__ inline void partition_error(const char* message, call_site) { usage_trap(message); }

// NVIDIA's block_tile_memory is scratch for wide tiles on GPUs before sm_80;
// cohort needs none and checks that the block fits.
__device__ inline void block_tile_memory_check(unsigned max_block_size, call_site) {
  if (block_threads() > max_block_size)
    usage_trap("this_thread_block(block_tile_memory<MaxBlockSize>) in a block larger than MaxBlockSize");
}

}  // namespace cohort::detail::gpu
