// Whole-array reduction on the CUDA backend. Two ways, chosen by the
// operator:
// - cohort's own operators (plus, less, greater, bit_*) on arithmetic types
//   are commutative and have an identity, so each thread folds a grid-stride
//   share of 16-byte vectors into four independent accumulators (loads in
//   flight, not a chain of adds) and the shares meet in any order;
// - any other associative operator folds in index order: each block takes a
//   run of whole tiles (detail/cuda/algorithms/array_tiles.hpp), and the blocks' totals
//   meet in block order (the grid collectives are rank-ordered).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "cohort/collectives/functional.hpp"
#include "cohort/collectives/reduce.hpp"
#include "cohort/detail/cuda/algorithms/array_scratch.hpp"
#include "cohort/detail/cuda/algorithms/array_tiles.hpp"
#include "cohort/detail/cuda/tiles/shuffle.hpp"
#include "cohort/detail/partial_value.hpp"
#include "cohort/groups/grid_group.hpp"

namespace cohort::detail::gpu {

template <class Op, class T>
inline constexpr bool strided_fold_allowed =
    std::is_arithmetic_v<T> &&
    (std::is_same_v<Op, cohort::plus<T>> || std::is_same_v<Op, cohort::less<T>> ||
     std::is_same_v<Op, cohort::greater<T>> ||
     (std::is_integral_v<T> && (std::is_same_v<Op, cohort::bit_and<T>> || std::is_same_v<Op, cohort::bit_or<T>> ||
                                std::is_same_v<Op, cohort::bit_xor<T>>)));

// This thread's share of in[0, n) for a commutative operator with an
// identity: elements before the first 16-byte boundary and after the last
// whole vector one at a time, the vectors in between four at a time.
template <class T, class Op>
__device__ __forceinline__ T strided_fold(const T* in, std::size_t n, Op op, std::size_t rank, std::size_t threads) {
  constexpr unsigned V = vector_items<T>;
  const T identity = identity_of<Op, T>();
  T acc[4] = {identity, identity, identity, identity};
  std::size_t head = 0, vectors = 0;
  if constexpr (V > 1) {
    const auto address = reinterpret_cast<std::uintptr_t>(in);
    if (address % sizeof(T) == 0) {
      head = (16 - address % 16) % 16 / sizeof(T);
      if (head > n) head = n;
      vectors = (n - head) / V;
    }
  }
  const uint4* vec = reinterpret_cast<const uint4*>(in + head);
  const auto fold_vector = [&](T& a, const uint4& w) {
    T x[V];
    std::memcpy(x, &w, sizeof w);
#pragma unroll
    for (unsigned j = 0; j < V; ++j) a = op(a, x[j]);
  };
  std::size_t i = rank;
  for (; i + 3 * threads < vectors; i += 4 * threads) {
    uint4 w[4];
#pragma unroll
    for (unsigned u = 0; u < 4; ++u) w[u] = __ldg(vec + i + u * threads);
#pragma unroll
    for (unsigned u = 0; u < 4; ++u) fold_vector(acc[u], w[u]);
  }
  for (; i < vectors; i += threads) fold_vector(acc[0], __ldg(vec + i));
  if (rank < head) acc[1] = op(acc[1], in[rank]);
  for (std::size_t e = head + vectors * V + rank; e < n; e += threads) acc[2] = op(acc[2], in[e]);
  return op(op(acc[0], acc[1]), op(acc[2], acc[3]));
}

// The block's fold in thread 0 (any order: commutative operators only).
template <unsigned Warps, class T, class Op>
__device__ __forceinline__ T block_fold_any_order(T v, Op op) {
  __shared__ T warp_totals[Warps];
#pragma unroll
  for (unsigned d = 16; d > 0; d /= 2) v = op(v, shfl_xor(all_lanes, v, d));
  if (threadIdx.x % 32 == 0) warp_totals[threadIdx.x / 32] = v;
  __syncthreads();
  if (threadIdx.x == 0)
#pragma unroll
    for (unsigned w = 1; w < Warps; ++w) v = op(v, warp_totals[w]);
  return v;
}

inline constexpr unsigned reduce_warps = 8;

// The shares, then the block totals; the last block to finish folds those
// and stores the result, and resets the arrival count for the next launch.
template <class T, class Op>
__global__ void __launch_bounds__(reduce_warps * 32)
    strided_reduce_kernel(const T* __restrict__ in, std::size_t n, T* out, Op op, T* block_totals, unsigned* arrivals) {
  const std::size_t threads = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  T v = strided_fold(in, n, op, static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x, threads);
  v = block_fold_any_order<reduce_warps>(v, op);
  __shared__ bool last;
  if (threadIdx.x == 0) {
    block_totals[blockIdx.x] = v;
    __threadfence();
    last = atomicAdd(arrivals, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!last) return;
  __threadfence();
  T total = identity_of<Op, T>();
  for (unsigned b = threadIdx.x; b < gridDim.x; b += blockDim.x)
    total = op(total, *static_cast<const volatile T*>(block_totals + b));
  total = block_fold_any_order<reduce_warps>(total, op);
  if (threadIdx.x == 0) {
    *out = total;
    *arrivals = 0;
  }
}

// Block `block` of `blocks`: its run of whole tiles among `tiles`.
struct tile_run {
  std::size_t begin, end;
};
__device__ __forceinline__ tile_run tiles_of_block(std::size_t tiles, std::size_t block, std::size_t blocks) {
  const std::size_t per = (tiles + blocks - 1) / blocks;
  const std::size_t begin = block * per < tiles ? block * per : tiles;
  return {begin, begin + per < tiles ? begin + per : tiles};
}

// The in-order fold of the block's tiles, in thread 0 (absent if it has none).
template <class T, class Op>
__device__ partial<T> fold_block_tiles(const T* in, std::size_t n, tile_run run, Op op) {
  __shared__ tile_exchange<T> shared;
  const unsigned warps = blockDim.x / 32;
  const std::size_t tile = tile_items<T>(warps);
  const bool vector = vector_aligned(in);
  const lifted<Op> lift{op};
  partial<T> total = absent<T>();
  for (std::size_t t = run.begin; t < run.end; ++t) {
    partial<T> tile_total;
    const bool whole = (t + 1) * tile <= n;
    lane_items<T> items;
    load_tile(items, in, t * tile, n, whole, vector);
    join_warps(shared, fold_warp_segment(items, t * tile, n, whole, op), op, &tile_total, warps);
    total = lift(total, tile_total);
    __syncthreads();  // the warps' totals are read before the next tile's are written
  }
  return total;
}

// The whole array's fold in every thread of the grid, in index order (1-D blocks of whole warps).
template <class T, class Op>
__device__ partial<T> ordered_grid_fold(const grid_group& grid, const T* in, std::size_t n, Op op) {
  const std::size_t tiles = (n + tile_items<T>(blockDim.x / 32) - 1) / tile_items<T>(blockDim.x / 32);
  const partial<T> block_total =
      fold_block_tiles(in, n, tiles_of_block(tiles, grid.block_rank(), grid.num_blocks()), op);
  return cohort::reduce(grid, threadIdx.x == 0 ? block_total : absent<T>(), lifted<Op>{op});
}

template <class T, class Op>
__global__ void __launch_bounds__(reduce_warps * 32) ordered_reduce_kernel(const T* in, std::size_t n, T* out, Op op) {
  const grid_group grid = this_grid();
  const partial<T> total = ordered_grid_fold(grid, in, n, op);
  if (grid.thread_rank() == 0 && total.present) *out = total.value;
}

// Block totals (one per resident block) after a 256-byte arrival count.
inline constexpr std::size_t reduce_header_bytes = 256;

template <class T, class Op>
void device_reduce(const T* in, std::size_t n, T* out, Op op, stream_t stream) {
  if (n == 0) {
    // From pageable memory: the runtime has staged the value when the call returns.
    const T identity = identity_of<Op, T>();
    gpu::check(cudaMemcpyAsync(out, &identity, sizeof(T), cudaMemcpyHostToDevice, stream), "device_reduce of nothing");
    return;
  }
  if constexpr (strided_fold_allowed<Op, T>) {
    constexpr unsigned threads = reduce_warps * 32;
    const auto kernel = strided_reduce_kernel<T, Op>;
    // At least four vectors per thread: fewer blocks leave less for the last block to fold.
    const std::size_t wanted = (n * sizeof(T) + threads * 64 - 1) / (threads * 64);
    const int resident = resident_blocks(kernel, threads);
    const unsigned blocks = static_cast<unsigned>(wanted < static_cast<std::size_t>(resident) ? wanted : resident);
    const array_scratch scratch = scratch_for(scratch_use::reduce, stream, reduce_header_bytes + blocks * sizeof(T));
    auto* arrivals = static_cast<unsigned*>(scratch.data);
    auto* block_totals = reinterpret_cast<T*>(static_cast<char*>(scratch.data) + reduce_header_bytes);
    launch_array_kernel(kernel, blocks, threads, stream, false, in, n, out, op, block_totals, arrivals);
  } else {
    const auto kernel = ordered_reduce_kernel<T, Op>;
    const std::size_t tiles = (n + tile_items<T>(reduce_warps) - 1) / tile_items<T>(reduce_warps);
    const int resident = resident_blocks(kernel, reduce_warps * 32);
    const unsigned blocks = static_cast<unsigned>(tiles < static_cast<std::size_t>(resident) ? tiles : resident);
    launch_array_kernel(kernel, blocks, reduce_warps * 32, stream, true, in, n, out, op);
  }
}

}  // namespace cohort::detail::gpu
