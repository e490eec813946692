// The pieces the sum reductions share: a thread's grid-stride partial sum,
// the block-wide tree sum in shared memory (thread_block_reduce_sum) and the
// block sum with warp shuffles (warp_reduce). Kernel code, one source for
// both backends.
//
// The kernels in these headers are templates on the element type: besides
// the generality, that lets several translation units include them, on
// either backend (nvcc ignores `inline` on a __global__ function).
#pragma once

#include <cstddef>

#include <cohort/cohort.hpp>

namespace cohort_kernels {

namespace cg = cohort;

// The block size every reduction here launches with (the seeds' choice). The
// tree sum halves it, so it must be a power of two.
inline constexpr unsigned reduce_block_threads = 256;

// This thread's share of in[0, n): the elements at its global index plus
// multiples of the grid's thread count, so a grid of any size covers n.
template <class T>
__device__ T grid_stride_sum(const T* __restrict__ in, std::size_t n) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  T sum = T(0);
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    sum += in[i];
  return sum;
}

// The sum of one value per thread over the block, halving in shared memory
// (shared holds a T per thread; the block size is a power of two). The
// result is thread 0's to use: a following call may overwrite shared[0]
// before other threads read it, as with the seeds' shuffle reductions.
template <class T>
__device__ T block_tree_sum(cg::thread_block block, T* shared, T value) {
  const unsigned rank = block.thread_rank();
  shared[rank] = value;
  block.sync();
  for (unsigned stride = block.size() / 2; stride > 0; stride /= 2) {
    if (rank < stride) shared[rank] += shared[rank + stride];
    block.sync();
  }
  return shared[0];
}

// The shared memory block_warp_sum needs: a T per warp, counting warps of
// 32 lanes (the most warps a block of this size has on either backend).
template <class T>
__host__ __device__ constexpr std::size_t warp_sums_bytes(unsigned block_threads) {
  return (block_threads + 31) / 32 * sizeof(T);
}

// Every lane of a warp. CUDA's warps have 32 lanes; the host backend can
// emulate 64-lane warps, and its masks are 64 bits wide.
__device__ inline unsigned long long full_warp_mask() { return warpSize == 64 ? ~0ull : 0xffffffffull; }

// The sum over the warp by shuffling down, halving the distance each step;
// valid in lane 0, as the seeds' warp_reduce.
template <class T>
__device__ T warp_sum(T value) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2) value += __shfl_down_sync(full_warp_mask(), value, offset);
  return value;
}

// The block sum with shuffles: each warp sums its lanes, lane 0 of
// each warp puts the warp's sum in shared memory (warp_sums_bytes), and the
// first warp sums those. Valid in thread 0; blocks are one-dimensional.
template <class T>
__device__ T block_warp_sum(T* warp_sums, T value) {
  const unsigned lane = threadIdx.x % warpSize;
  const unsigned warp = threadIdx.x / warpSize;
  value = warp_sum(value);
  if (lane == 0) warp_sums[warp] = value;
  __syncthreads();
  if (warp == 0) {
    const unsigned warps = (blockDim.x + warpSize - 1) / warpSize;
    value = warp_sum(lane < warps ? warp_sums[lane] : T(0));
  }
  return value;
}

}  // namespace cohort_kernels
