// Grid-wide inclusive scans. Two are written with block barriers, shared
// memory and grid.sync(), as seed code would be: reduce-then-scan, each block
// owning a tile of whole chunks, summing it, learning the sum of the tiles
// before its own, and scanning its tile chunk by chunk from that offset; they
// differ in how the tile sums travel (three kernel launches, or one
// cooperative launch with grid.sync()). The others leave all of that to
// cohort's whole-array scans (docs/algorithms.md): inside a cooperative
// kernel, and from the host.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include <cohort/cohort.hpp>

#include "common/grid_size.hpp"
#include "reduce/block_sum.hpp"

namespace cohort_kernels {

namespace cg = cohort;

// Every scan kernel runs blocks of scan_block_threads threads; a thread scans
// scan_items_per_thread consecutive elements of each chunk.
inline constexpr unsigned scan_block_threads = 256;
inline constexpr unsigned scan_items_per_thread = 8;
inline constexpr unsigned scan_chunk = scan_block_threads * scan_items_per_thread;
// Dynamic shared memory: the chunk being scanned and a T per thread.
template <class T>
inline constexpr std::size_t scan_shared_bytes = (scan_chunk + scan_block_threads) * sizeof(T);

// The [begin, end) of in[0, n) that block `block` of `blocks` scans: whole
// chunks, so that only the last non-empty tile is ragged.
struct tile_range {
  std::size_t begin, end;
};
__host__ __device__ inline tile_range scan_tile(std::size_t n, std::size_t block, std::size_t blocks) {
  const std::size_t chunks = (n + scan_chunk - 1) / scan_chunk;
  const std::size_t tile = (chunks + blocks - 1) / blocks * scan_chunk;
  const std::size_t begin = block * tile < n ? block * tile : n;
  return {begin, n - begin < tile ? n : begin + tile};
}

// Exclusive prefix sum of one value per thread over the block, Hillis-Steele
// in shared (a T per thread); total receives the block's sum. Ends on a
// barrier, so shared may be reused at once.
template <class T>
__device__ T block_exclusive_scan(cg::thread_block block, T* shared, T value, T& total) {
  const unsigned rank = block.thread_rank();
  shared[rank] = value;
  block.sync();
  for (unsigned offset = 1; offset < block.size(); offset *= 2) {
    const T before = rank >= offset ? shared[rank - offset] : T(0);
    block.sync();
    shared[rank] += before;
    block.sync();
  }
  const T inclusive = shared[rank];
  total = shared[block.size() - 1];
  block.sync();
  return inclusive - value;
}

// The block's sum in every thread: the tree sum, then a barrier so that no
// thread overwrites shared[0] before all have read it.
template <class T>
__device__ T block_sum_to_all(cg::thread_block block, T* shared, T value) {
  const T sum = cohort_kernels::block_tree_sum(block, shared, value);
  block.sync();
  return sum;
}

// This thread's share of in[begin, end), block-strided so loads coalesce.
template <class T>
__device__ T tile_share(const T* __restrict__ in, tile_range t) {
  T sum = T(0);
  for (std::size_t i = t.begin + threadIdx.x; i < t.end; i += blockDim.x) sum += in[i];
  return sum;
}

// out[i] = carry + in[t.begin] + ... + in[i] over the tile, a chunk at a time.
// A chunk is staged in shared memory with coalesced loads; each thread scans
// its consecutive items, the block scans the threads' totals, and the chunk
// is written back coalesced.
template <class T>
__device__ void scan_tile_from(T* out, const T* __restrict__ in, tile_range t, T carry) {
  const cg::thread_block block = cg::this_thread_block();
  T* chunk = cg::dynamic_shared<T>();
  T* scratch = chunk + scan_chunk;
  const unsigned rank = block.thread_rank();
  T* mine = chunk + rank * scan_items_per_thread;
  for (std::size_t base = t.begin; base < t.end; base += scan_chunk) {
    for (unsigned k = 0; k < scan_items_per_thread; ++k) {
      const std::size_t i = base + k * scan_block_threads + rank;
      chunk[k * scan_block_threads + rank] = i < t.end ? in[i] : T(0);
    }
    block.sync();
    T running = T(0);
    for (unsigned k = 0; k < scan_items_per_thread; ++k) {
      running += mine[k];
      mine[k] = running;
    }
    T chunk_total = T(0);
    const T offset = carry + block_exclusive_scan(block, scratch, running, chunk_total);
    for (unsigned k = 0; k < scan_items_per_thread; ++k) mine[k] += offset;
    block.sync();
    for (unsigned k = 0; k < scan_items_per_thread; ++k) {
      const std::size_t i = base + k * scan_block_threads + rank;
      if (i < t.end) out[i] = chunk[k * scan_block_threads + rank];
    }
    carry += chunk_total;
    block.sync();  // the chunk is written out before the next one is staged
  }
}

// Three launches. 1: block b writes its tile's sum to tile_sums[b].
template <class T>
__global__ void scan_tile_sums_kernel(T* tile_sums, const T* __restrict__ in, std::size_t n) {
  const cg::thread_block block = cg::this_thread_block();
  const T sum = cohort_kernels::block_tree_sum(block, cg::dynamic_shared<T>() + scan_chunk,
                                               tile_share(in, scan_tile(n, blockIdx.x, gridDim.x)));
  if (block.thread_rank() == 0) tile_sums[blockIdx.x] = sum;
}

// 2: one block scans the tile sums.
template <class T>
__global__ void scan_tile_prefix_kernel(T* tile_prefix, const T* tile_sums, std::size_t tiles) {
  scan_tile_from(tile_prefix, tile_sums, {0, tiles}, T(0));
}

// 3: block b scans its tile from the sum of the tiles before it.
template <class T>
__global__ void scan_tiles_kernel(T* out, const T* __restrict__ in, std::size_t n, const T* tile_prefix) {
  scan_tile_from(out, in, scan_tile(n, blockIdx.x, gridDim.x), blockIdx.x ? tile_prefix[blockIdx.x - 1] : T(0));
}

// One cooperative launch: the tile sums, grid.sync(), then each block adds up
// the sums before its own and scans its tile.
template <class T>
__global__ void scan_cooperative_kernel(T* out, const T* __restrict__ in, std::size_t n, T* tile_sums) {
  const cg::grid_group grid = cg::this_grid();
  const cg::thread_block block = cg::this_thread_block();
  T* scratch = cg::dynamic_shared<T>() + scan_chunk;
  const tile_range tile = scan_tile(n, grid.block_rank(), grid.num_blocks());
  const T sum = cohort_kernels::block_tree_sum(block, scratch, tile_share(in, tile));
  if (block.thread_rank() == 0) tile_sums[grid.block_rank()] = sum;
  grid.sync();
  T before = T(0);
  for (unsigned long long b = block.thread_rank(); b < grid.block_rank(); b += block.size()) before += tile_sums[b];
  scan_tile_from(out, in, tile, block_sum_to_all(block, scratch, before));
}

// One cooperative launch built on cohort's whole-array grid scan
// (docs/algorithms.md): a reduce-then-scan whose loads coalesce, in one call.
template <class T>
__global__ void scan_grid_collective_kernel(T* out, const T* __restrict__ in, std::size_t n) {
  cohort::grid_inclusive_scan(cohort::this_grid(), in, out, n, cohort::plus<T>());
}

// A scan of int32 planned for one size, as reduce_plan is for reductions.
struct scan_plan {
  std::string launch;
  std::function<void(const int* in, int* out)> run;  // out[i] = in[0] + ... + in[i]
};

struct scan_variant {
  std::string_view name;
  scan_plan (*plan)(std::size_t n);
};

// A thread per scan_items_per_thread elements, up to every block that can be resident.
template <class... P>
unsigned scan_grid(void (*kernel)(P...), std::size_t n, std::size_t shared_bytes = scan_shared_bytes<int>) {
  return cohort_kernels::resident_grid(kernel, scan_block_threads,
                                       (n + scan_items_per_thread - 1) / scan_items_per_thread, shared_bytes);
}

inline scan_plan plan_scan_three_kernels(std::size_t n) {
  const unsigned grid = scan_grid(scan_tiles_kernel<int>, n);
  auto tile_sums = std::make_shared<cohort::device_buffer<int>>(grid);
  auto tile_prefix = std::make_shared<cohort::device_buffer<int>>(grid);
  const cg::launch_config tiles{grid, scan_block_threads, scan_shared_bytes<int>};
  const cg::launch_config one{1, scan_block_threads, scan_shared_bytes<int>};
  return {cohort_kernels::launch_text(grid, scan_block_threads) + " + 1x" + std::to_string(scan_block_threads) + " + " +
              cohort_kernels::launch_text(grid, scan_block_threads),
          [=](const int* in, int* out) {
            cg::launch<scan_tile_sums_kernel<int>>(tiles, tile_sums->data(), in, n);
            cg::launch<scan_tile_prefix_kernel<int>>(one, tile_prefix->data(), tile_sums->data(), std::size_t{grid});
            cg::launch<scan_tiles_kernel<int>>(tiles, out, in, n, tile_prefix->data());
          }};
}

inline scan_plan plan_scan_cooperative(std::size_t n) {
  const unsigned grid = scan_grid(scan_cooperative_kernel<int>, n);
  auto tile_sums = std::make_shared<cohort::device_buffer<int>>(grid);
  const cg::launch_config config{grid, scan_block_threads, scan_shared_bytes<int>};
  return {cohort_kernels::launch_text(grid, scan_block_threads) + " cooperative", [=](const int* in, int* out) {
            cg::launch_cooperative<scan_cooperative_kernel<int>>(config, out, in, n, tile_sums->data());
          }};
}

inline scan_plan plan_scan_grid_collective(std::size_t n) {
  const unsigned grid = scan_grid(scan_grid_collective_kernel<int>, n, 0);
  return {cohort_kernels::launch_text(grid, scan_block_threads) + " cooperative", [grid, n](const int* in, int* out) {
            cg::launch_cooperative<scan_grid_collective_kernel<int>>({grid, scan_block_threads}, out, in, n);
          }};
}

// The single-pass scan with decoupled look-back behind cohort::device_inclusive_scan.
inline scan_plan plan_device_scan(std::size_t n) {
  return {"cohort::device_inclusive_scan",
          [n](const int* in, int* out) { cohort::device_inclusive_scan(in, out, n, cohort::plus<int>()); }};
}

inline constexpr scan_variant scan_variants[] = {{"three-kernel", &plan_scan_three_kernels},
                                                 {"cooperative", &plan_scan_cooperative},
                                                 {"grid-scan", &plan_scan_grid_collective},
                                                 {"device-scan", &plan_device_scan}};

}  // namespace cohort_kernels
