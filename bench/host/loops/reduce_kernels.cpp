// The kernels the loops engine is measured on, built by clang with the loops
// pass: the seed-style shared-memory tree reduction (`if (tid < s)`, a barrier
// per level), barrier-free saxpy, bare barriers and a shuffle butterfly. Each
// launch function runs one launch.
#include "reduce_kernels.hpp"

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <vector>

#include <cohort/cohort.hpp>

namespace {

__global__ void tree_reduce_kernel(const float* in, float* out) {
  __shared__ float partial[1024];
  const unsigned tid = threadIdx.x;
  partial[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) partial[tid] += partial[tid + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = partial[0];
}

// The two-level block reduction with warp shuffles (NVIDIA's "Faster Parallel
// Reductions on Kepler" shape): each warp's sum by __shfl_down_sync, its lane 0
// to shared memory, a barrier, then warp 0 alone (warp-uniform control flow)
// sums the warps' sums the same way.
__device__ float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

__global__ void warp_block_reduce_kernel(const float* in, float* out) {
  __shared__ float warp_sums[32];
  const unsigned lane = threadIdx.x % 32, wid = threadIdx.x / 32;
  float v = warp_sum(in[blockIdx.x * blockDim.x + threadIdx.x]);
  if (lane == 0) warp_sums[wid] = v;
  __syncthreads();
  v = threadIdx.x < blockDim.x / 32 ? warp_sums[lane] : 0.0f;
  if (wid == 0) v = warp_sum(v);
  if (threadIdx.x == 0) out[blockIdx.x] = v;
}

// The cooperative grid-sync reduction: each thread sums a grid-stride slice,
// each block its threads' sums through shared memory; after grid.sync(),
// block 0 sums the blocks' partials the same way.
__global__ void grid_sync_reduce_kernel(const float* in, float* partial, float* out, unsigned n) {
  __shared__ float sums[1024];
  const unsigned tid = threadIdx.x;
  float v = 0.0f;
  for (unsigned i = blockIdx.x * blockDim.x + tid; i < n; i += gridDim.x * blockDim.x) v += in[i];
  sums[tid] = v;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) sums[tid] += sums[tid + s];
    __syncthreads();
  }
  if (tid == 0) partial[blockIdx.x] = sums[0];
  cohort::this_grid().sync();
  if (blockIdx.x != 0) return;
  sums[tid] = 0.0f;
  for (unsigned b = tid; b < gridDim.x; b += blockDim.x) sums[tid] += partial[b];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) sums[tid] += sums[tid + s];
    __syncthreads();
  }
  if (tid == 0) *out = sums[0];
}

// `rounds` grid barriers and little else.
__global__ void grid_syncs_kernel(unsigned rounds, unsigned* out) {
  unsigned r = 0;
  for (; r < rounds; ++r) cohort::this_grid().sync();
  out[blockIdx.x] = r;
}

// The multi-grid reduction: each grid's part as grid_sync_reduce_kernel sums
// the whole, then, after a multi-grid barrier, grid 0's block 0 the grids' sums.
__global__ void multi_grid_reduce_kernel(const float* in, float* partial, float* grid_sums, float* out,
                                         unsigned n_per_grid) {
  __shared__ float sums[1024];
  const unsigned tid = threadIdx.x, g = cohort::this_multi_grid().grid_rank();
  const float* mine = in + static_cast<std::size_t>(g) * n_per_grid;
  float v = 0.0f;
  for (unsigned i = blockIdx.x * blockDim.x + tid; i < n_per_grid; i += gridDim.x * blockDim.x) v += mine[i];
  sums[tid] = v;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) sums[tid] += sums[tid + s];
    __syncthreads();
  }
  if (tid == 0) partial[g * gridDim.x + blockIdx.x] = sums[0];
  cohort::this_grid().sync();
  if (blockIdx.x == 0 && tid == 0) {
    float s = 0.0f;
    for (unsigned b = 0; b < gridDim.x; ++b) s += partial[g * gridDim.x + b];
    grid_sums[g] = s;
  }
  const cohort::multi_grid_group mg = cohort::this_multi_grid();
  mg.sync();
  if (g != 0 || blockIdx.x != 0 || tid != 0) return;
  float s = 0.0f;
  for (unsigned k = 0; k < mg.num_grids(); ++k) s += grid_sums[k];
  *out = s;
}

// `rounds` multi-grid barriers and little else.
__global__ void multi_grid_syncs_kernel(unsigned rounds, unsigned* out) {
  unsigned r = 0;
  for (; r < rounds; ++r) cohort::this_multi_grid().sync();
  out[cohort::this_multi_grid().grid_rank() * gridDim.x + blockIdx.x] = r;
}

// Rounds of an exchange between the blocks of a cluster through global memory:
// each thread averages its value with the next block's, a cluster barrier
// before each read and after it.
__global__ void cluster_exchange_kernel(unsigned rounds, float* data) {
  const cohort::cluster_group cluster = cohort::this_cluster();
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned rank = cluster.block_rank(), size = cluster.num_blocks();
  const unsigned next = (blockIdx.x - rank + (rank + 1) % size) * blockDim.x + threadIdx.x;
  float v = data[i];
  for (unsigned r = 0; r < rounds; ++r) {
    data[i] = v;
    cluster.sync();
    const float other = data[next];
    cluster.sync();  // every block has read before the next round writes
    v = 0.5f * (v + other);
  }
  data[i] = v;
}

__global__ void saxpy_kernel(unsigned n, float a, const float* x, float* y) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

// Nothing but barriers: `rounds` of them, each thread adding its rank to a
// shared word in between, so that the loop is not empty.
__global__ void barriers_kernel(unsigned rounds, unsigned* out) {
  __shared__ unsigned word[1024];
  word[threadIdx.x] = 0;
  for (unsigned r = 0; r < rounds; ++r) {
    word[threadIdx.x] += threadIdx.x;
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = word[0];
}

// A __shfl_xor_sync butterfly per lane, `rounds` shuffles (the warp's sum
// every five), as the peer benchmark's shuffle row.
__global__ void butterfly_kernel(unsigned rounds, int* out) {
  int x = static_cast<int>(threadIdx.x);
  for (unsigned r = 0; r < rounds; ++r) x += __shfl_xor_sync(0xffffffffu, x, 1 << (r % 5));
  out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}

// A warp reduction and a ballot per round; the mask a constant, or (Records)
// read from memory (`*mask`), which the pass cannot lower to the lane arrays (a
// mask that is a kernel parameter it lowers).
template <bool Records>
__global__ void warp_votes_kernel(unsigned rounds, const unsigned* mask, int* out) {
  const unsigned m = Records ? *mask : 0xffffffffu;
  int x = static_cast<int>(threadIdx.x);
  for (unsigned r = 0; r < rounds; ++r) {
    x += __reduce_add_sync(m, x) & 7;
    x += __popcll(__ballot_sync(m, x & 1));
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}

template <unsigned Tile>
__global__ void tile_shuffles_kernel(unsigned rounds, int* out) {
  const auto tile = cohort::tiled_partition<Tile>(cohort::this_thread_block());
  int x = static_cast<int>(threadIdx.x);
  for (unsigned r = 0; r < rounds; ++r) {
    x += tile.shfl_xor(x, 1u << (r % 3));
    x += tile.shfl_down(x, 1) & 3;
  }
  tile.sync();
  out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}

// plus holding state (`zero`, 0): its copies are not interchangeable, so cg::reduce and the scans keep the
// fiber engine's records (through the loops engine's exchange).
struct stateful_plus {
  int zero;
  __device__ int operator()(int a, int b) const { return a + b + zero; }
};

template <unsigned Tile, bool Records>
__global__ void tile_folds_kernel(unsigned rounds, int* out) {
  const std::conditional_t<Records, stateful_plus, cohort::plus<int>> op{};
  const auto tile = cohort::tiled_partition<Tile>(cohort::this_thread_block());
  int x = static_cast<int>(threadIdx.x);
  for (unsigned r = 0; r < rounds; ++r) {
    x += cohort::reduce(tile, x, op) & 7;
    x += cohort::inclusive_scan(tile, x, op) & 7;
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}

template <unsigned Tile>
__global__ void tile_votes_kernel(unsigned rounds, int* out) {
  const auto tile = cohort::tiled_partition<Tile>(cohort::this_thread_block());
  int x = static_cast<int>(threadIdx.x);
  for (unsigned r = 0; r < rounds; ++r) {
    x += static_cast<int>(tile.ballot(x & 1) & 7);
    x += tile.any((x & 6) == 6) + tile.all(x & 8);
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}

// A __match_any_sync and a __match_all_sync per round; the mask a constant, or (Records) read from memory.
template <bool Records>
__global__ void warp_matches_kernel(unsigned rounds, const unsigned* mask, int* out) {
  const unsigned m = Records ? *mask : 0xffffffffu;
  int x = static_cast<int>(threadIdx.x);
  for (unsigned r = 0; r < rounds; ++r) {
    x += __popcll(__match_any_sync(m, x & 7));
    int pred = 0;
    x += static_cast<int>(__match_all_sync(m, x >> 12, &pred) & 1) + pred;
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}

template <unsigned Tile>
__global__ void tile_matches_kernel(unsigned rounds, int* out) {
  const auto tile = cohort::tiled_partition<Tile>(cohort::this_thread_block());
  int x = static_cast<int>(threadIdx.x);
  for (unsigned r = 0; r < rounds; ++r) {
    x += __popc(tile.match_any(x & 7));
    int pred = 0;
    x += static_cast<int>(tile.match_all(x >> 12, pred) & 1) + pred;
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}

}  // namespace

namespace loops_bench {

namespace {
// The full mask in device memory, for the records rows.
const unsigned* full_mask_in_memory() {
  static cohort::device_buffer<unsigned> mask(std::vector<unsigned>{0xffffffffu});
  return mask.data();
}
}  // namespace

void warp_matches(unsigned rounds, int* out, unsigned blocks, unsigned block, bool records) {
  cohort::launch(records ? warp_matches_kernel<true> : warp_matches_kernel<false>, {dim3(blocks), dim3(block)}, rounds,
                 full_mask_in_memory(), out);
}

void tile_matches(unsigned rounds, int* out, unsigned blocks, unsigned block, unsigned tile) {
  cohort::launch(tile == 8 ? tile_matches_kernel<8> : tile_matches_kernel<32>, {dim3(blocks), dim3(block)}, rounds,
                 out);
}

void tile_votes(unsigned rounds, int* out, unsigned blocks, unsigned block, unsigned tile) {
  cohort::launch(tile == 8 ? tile_votes_kernel<8> : tile_votes_kernel<32>, {dim3(blocks), dim3(block)}, rounds, out);
}

void tile_folds(unsigned rounds, int* out, unsigned blocks, unsigned block, unsigned tile, bool records) {
  auto kernel = records ? (tile == 8 ? tile_folds_kernel<8, true> : tile_folds_kernel<32, true>)
                        : (tile == 8 ? tile_folds_kernel<8, false> : tile_folds_kernel<32, false>);
  cohort::launch(kernel, {dim3(blocks), dim3(block)}, rounds, out);
}

void tile_shuffles(unsigned rounds, int* out, unsigned blocks, unsigned block, unsigned tile) {
  if (tile == 8)
    cohort::launch(tile_shuffles_kernel<8>, {dim3(blocks), dim3(block)}, rounds, out);
  else
    cohort::launch(tile_shuffles_kernel<32>, {dim3(blocks), dim3(block)}, rounds, out);
}

void warp_votes(unsigned rounds, int* out, unsigned blocks, unsigned block, bool records) {
  if (records)
    cohort::launch(warp_votes_kernel<true>, {dim3(blocks), dim3(block)}, rounds, full_mask_in_memory(), out);
  else
    cohort::launch(warp_votes_kernel<false>, {dim3(blocks), dim3(block)}, rounds, full_mask_in_memory(), out);
}

void butterfly(unsigned rounds, int* out, unsigned blocks, unsigned block) {
  cohort::launch(butterfly_kernel, {dim3(blocks), dim3(block)}, rounds, out);
}

void barriers(unsigned rounds, unsigned* out, unsigned blocks, unsigned block) {
  cohort::launch(barriers_kernel, {dim3(blocks), dim3(block)}, rounds, out);
}

void tree_reduce(const float* in, float* out, unsigned blocks, unsigned block) {
  cohort::launch(tree_reduce_kernel, {dim3(blocks), dim3(block)}, in, out);
}

void warp_block_reduce(const float* in, float* out, unsigned blocks, unsigned block) {
  cohort::launch(warp_block_reduce_kernel, {dim3(blocks), dim3(block)}, in, out);
}

unsigned cooperative_blocks(unsigned block) {
  return static_cast<unsigned>(cohort::max_cooperative_grid(grid_sync_reduce_kernel, static_cast<int>(block)));
}

void grid_sync_reduce(const float* in, float* partial, float* out, unsigned n, unsigned blocks, unsigned block) {
  cohort::launch_cooperative(grid_sync_reduce_kernel, {dim3(blocks), dim3(block)}, in, partial, out, n);
}

void grid_syncs(unsigned rounds, unsigned* out, unsigned blocks, unsigned block) {
  cohort::launch_cooperative(grid_syncs_kernel, {dim3(blocks), dim3(block)}, rounds, out);
}

namespace {

std::vector<cohort::device_launch> on_devices(unsigned devices, unsigned blocks, unsigned block) {
  std::vector<cohort::device_launch> grids;
  for (unsigned d = 0; d < devices; ++d) grids.push_back({static_cast<int>(d), {dim3(blocks), dim3(block)}});
  return grids;
}

}  // namespace

void multi_grid_reduce(const float* in, float* partial, float* grid_sums, float* out, unsigned n, unsigned devices,
                       unsigned blocks, unsigned block) {
  cohort::launch_cooperative_multi_device(multi_grid_reduce_kernel, on_devices(devices, blocks, block), [&](unsigned) {
    return std::tuple{in, partial, grid_sums, out, n / devices};
  });
}

void multi_grid_syncs(unsigned rounds, unsigned* out, unsigned devices, unsigned blocks, unsigned block) {
  cohort::launch_cooperative_multi_device(multi_grid_syncs_kernel, on_devices(devices, blocks, block),
                                          [&](unsigned) { return std::tuple{rounds, out}; });
}

void cluster_exchange(unsigned rounds, float* data, unsigned blocks, unsigned block, unsigned cluster) {
  cohort::launch_config config{dim3(blocks), dim3(block)};
  config.cluster = dim3(cluster);
  cohort::launch(cluster_exchange_kernel, config, rounds, data);
}

void saxpy(unsigned n, float a, const float* x, float* y, unsigned block) {
  cohort::launch(saxpy_kernel, {dim3((n + block - 1) / block), dim3(block)}, n, a, x, y);
}

}  // namespace loops_bench
