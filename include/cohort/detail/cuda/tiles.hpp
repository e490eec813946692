// thread_block_tile<N, Parent> on the CUDA backend, made by tiled_partition<N>
// from a block or a tile, and this_thread(). A tile is the aligned run of N
// block ranks that holds the caller; the last tile of a block whose size is
// not a multiple of N holds the threads that exist, num_threads() counts them
// and its collectives involve them alone (docs/warp-level.md). Tiles of up to
// 32 threads are one warp's lanes and use the *_sync intrinsics
// (detail/warp_tile_ops.hpp); wider ones, beyond NVIDIA, have the same
// collectives through shared memory (detail/wide_tile_ops.hpp).
#pragma once

#include <cuda_runtime.h>

#include <type_traits>

#include "cohort/detail/cuda/device_error.hpp"
#include "cohort/detail/cuda/tile_geometry.hpp"
#include "cohort/detail/cuda/warp_tile_ops.hpp"
#include "cohort/detail/cuda/wide_tile_ops.hpp"
#include "cohort/groups/thread_block.hpp"
#include "cohort/groups/lane_mask.hpp"

namespace cohort {

template <unsigned N, class Parent = void>
class thread_block_tile;

namespace detail::gpu {

template <unsigned N>
using tile_ops = std::conditional_t<(N <= warp_lanes), warp_tile_ops<N>, wide_tile_ops<N>>;

struct tile_factory {
  template <unsigned N, class Parent>
  __device__ static thread_block_tile<N, Parent> make(unsigned meta_rank, unsigned meta_size) {
    return thread_block_tile<N, Parent>(meta_rank, meta_size);
  }
};

}  // namespace detail::gpu

template <unsigned N>
class thread_block_tile<N, void> {
  static_assert(N >= 1 && N <= 1024 && (N & (N - 1)) == 0, "a tile has a power-of-two size from 1 to 1024");
  using ops = detail::gpu::tile_ops<N>;

 public:
  using mask_type = detail::gpu::tile_mask_t<N>;

  __device__ static unsigned thread_rank() { return detail::gpu::block_rank() & (N - 1); }
  // N, or what exists of the last tile of a block whose size is not a multiple of N.
  __device__ static unsigned num_threads() { return detail::gpu::tile_count(N); }
  __device__ static unsigned size() { return num_threads(); }
  __device__ unsigned meta_group_rank() const { return meta_rank_; }
  __device__ unsigned meta_group_size() const { return meta_size_; }

  __device__ void sync() const { ops::sync(); }

  // The value of rank src_rank mod N (NVIDIA's wrap at the width); its own
  // where a partial last tile has no such member.
  template <class T>
  __device__ T shfl(T var, unsigned src_rank) const {
    return ops::shfl(var, src_rank);
  }
  // The value of rank thread_rank() - delta; its own where that is below 0.
  template <class T>
  __device__ T shfl_up(T var, unsigned delta) const {
    return ops::shfl_up(var, delta);
  }
  // The value of rank thread_rank() + delta; its own where that is past the end.
  template <class T>
  __device__ T shfl_down(T var, unsigned delta) const {
    return ops::shfl_down(var, delta);
  }
  // The value of rank thread_rank() ^ lane_mask; its own where that is past the end.
  template <class T>
  __device__ T shfl_xor(T var, unsigned lane_mask) const {
    return ops::shfl_xor(var, lane_mask);
  }

  __device__ int any(int predicate) const { return ops::any(predicate); }
  __device__ int all(int predicate) const { return ops::all(predicate); }
  __device__ mask_type ballot(int predicate) const { return ops::ballot(predicate); }
  // The ranks whose value is bitwise equal to the caller's.
  template <class T>
  __device__ mask_type match_any(T val) const {
    return ops::match_any(val);
  }
  // Every rank, with pred = 1, if all values are bitwise equal; else 0, with pred = 0.
  template <class T>
  __device__ mask_type match_all(T val, int& pred) const {
    return ops::match_all(val, pred);
  }

 protected:
  __device__ thread_block_tile(unsigned meta_rank, unsigned meta_size) : meta_rank_(meta_rank), meta_size_(meta_size) {}

 private:
  friend struct detail::gpu::tile_factory;

  unsigned meta_rank_;
  unsigned meta_size_;
};

// A tile that records its parent's type; it converts to thread_block_tile<N>.
template <unsigned N, class Parent>
class thread_block_tile : public thread_block_tile<N, void> {
 private:
  friend struct detail::gpu::tile_factory;
  __device__ thread_block_tile(unsigned meta_rank, unsigned meta_size)
      : thread_block_tile<N, void>(meta_rank, meta_size) {}
};

// Partitioning a block into tiles wider than a warp is a collective of the
// block (detail/wide_tile_barrier.hpp: the wide tiles' barriers are prepared
// here); partitioning a tile needs nothing.
template <unsigned N>
__device__ thread_block_tile<N, thread_block> tiled_partition(const thread_block&) {
  if constexpr (N > detail::gpu::warp_lanes) detail::gpu::wide_tiles_prepare();
  const unsigned threads = thread_block::num_threads();
  return detail::gpu::tile_factory::make<N, thread_block>(thread_block::thread_rank() / N, (threads + N - 1) / N);
}

template <unsigned N, unsigned M, class P>
__device__ thread_block_tile<N, thread_block_tile<M, P>> tiled_partition(const thread_block_tile<M, P>& parent) {
  static_assert(N <= M, "tiled_partition<N>(tile): the tile size must divide the parent tile's size");
  return detail::gpu::tile_factory::make<N, thread_block_tile<M, P>>(parent.thread_rank() / N,
                                                                     (parent.num_threads() + N - 1) / N);
}

// NVIDIA's scratch for tiles wider than a warp on GPUs before sm_80, which
// kernels declare __shared__ and hand to this_thread_block(). cohort needs
// none (wide tiles keep their own scratch); the call checks that the block fits.
template <unsigned MaxBlockSize = 1024>
struct block_tile_memory {};

template <unsigned MaxBlockSize>
__device__ thread_block this_thread_block(block_tile_memory<MaxBlockSize>&) {
  if (thread_block::num_threads() > MaxBlockSize)
    detail::gpu::usage_trap("this_thread_block(block_tile_memory<MaxBlockSize>) in a block larger than MaxBlockSize");
  return this_thread_block();
}

// The calling thread as a tile of one: rank 0 of 1, meta rank its block rank.
__device__ inline thread_block_tile<1> this_thread() {
  return detail::gpu::tile_factory::make<1, void>(thread_block::thread_rank(), thread_block::num_threads());
}

}  // namespace cohort
