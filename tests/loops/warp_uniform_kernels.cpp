// Kernels with collectives in warp-uniform control flow, for the loops engine
// (docs/loops-engine.md, "Collectives in warp-uniform control flow"). Built by
// clang with the loops pass (tests/loops/CMakeLists.txt); written for these
// tests in the shapes real CUDA code takes.
#include "warp_uniform_kernels.hpp"

#include <cohort/cohort.hpp>

namespace cg = cohort;

namespace warp_uniform_tests {

namespace {

constexpr unsigned full = 0xffffffffu;

__device__ unsigned rank_in_block() { return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z); }
__device__ unsigned element() { return blockIdx.x * (blockDim.x * blockDim.y * blockDim.z) + rank_in_block(); }

__device__ float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(full, v, offset);
  return v;
}

__device__ float block_sum(float v) {
  __shared__ float warp_sums[32];
  const unsigned lane = threadIdx.x % 32, wid = threadIdx.x / 32;
  v = warp_sum(v);
  if (lane == 0) warp_sums[wid] = v;
  __syncthreads();
  v = threadIdx.x < (blockDim.x + 31) / 32 ? warp_sums[lane] : 0.0f;
  if (wid == 0) v = warp_sum(v);
  return v;
}

__global__ void blog_block_sum_kernel(const float* in, float* out) {
  const unsigned i = element();
  out[i] = block_sum(in[i]);
}

__global__ void final_warp_sum_kernel(const float* in, float* out) {
  __shared__ float partial[1024];
  const unsigned tid = threadIdx.x;
  const unsigned i = blockIdx.x * blockDim.x * 2 + tid;
  float sum = in[i] + in[i + blockDim.x];
  partial[tid] = sum;
  __syncthreads();
  for (unsigned half = blockDim.x / 2; half > 32; half >>= 1) {
    if (tid < half) partial[tid] = sum = sum + partial[tid + half];
    __syncthreads();
  }
  if (tid < 32) {
    if (blockDim.x >= 64) sum += partial[tid + 32];
    for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(full, sum, offset);
  }
  if (tid == 0) out[blockIdx.x] = sum;
}

__global__ void tile_leaders_kernel(const int* in, int* out) {
  const auto tile = cg::tiled_partition<32>(cg::this_thread_block());
  const unsigned i = element();
  int v = in[i];
  for (unsigned offset = 16; offset > 0; offset /= 2) v += tile.shfl_down(v, offset);
  if (tile.meta_group_rank() == 0) {
    for (unsigned mask = 1; mask < 32; mask <<= 1) v ^= tile.shfl_xor(v, mask) * 3;
  } else if (tile.meta_group_rank() % 2 == 1) {
    v -= tile.shfl(v, 3);
    tile.sync();
    v += 7 * tile.shfl_up(v, 2);
  }
  out[i] = v;
}

__global__ void per_warp_rows_kernel(const float* in, float* out, unsigned rows) {
  const unsigned lane = threadIdx.x % 32, warps = (blockDim.x + 31) / 32;
  float v = 0.0f;
  for (unsigned row = threadIdx.x / 32; row < rows; row += warps) {
    v = in[row * 32 + lane];
    for (int mask = 16; mask > 0; mask /= 2) v += __shfl_xor_sync(full, v, mask);
    if (lane == 0) out[row] = v;
  }
  out[rows + threadIdx.x] = v;
}

// Warps of the whole launch, as a CSR SpMV's vector kernel takes rows: the
// launch's warp index from blockIdx.x * blockDim.x + threadIdx.x.
__global__ void launch_warp_rows_kernel(const float* in, float* out, unsigned rows) {
  const unsigned lane = threadIdx.x % 32, warps = gridDim.x * blockDim.x / 32;
  for (unsigned row = (blockIdx.x * blockDim.x + threadIdx.x) / 32; row < rows; row += warps) {
    float v = in[row * 32 + lane];
    for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(full, v, offset);
    if (lane == 0) out[row] = v;
  }
}

// A CSR matrix times a vector, a warp a row as vector SpMV kernels take them:
// the launch's warp index an int (a signed division), each lane a strided
// part of the row, the warp's sum by __shfl_down_sync.
__global__ void csr_vector_kernel(int rows, const int* row_start, const int* cols, const float* values, const float* x,
                                  float* y) {
  const int thread = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  const int lane = thread % 32, warps = static_cast<int>(gridDim.x * blockDim.x) / 32;
  for (int row = thread / 32; row < rows; row += warps) {
    float sum = 0.0f;
    for (int k = row_start[row] + lane; k < row_start[row + 1]; k += 32) sum += values[k] * x[cols[k]];
    for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(full, sum, offset);
    if (lane == 0) y[row] = sum;
  }
}

// `offset`, the same for the block, lives across each shuffle of the first
// loop: kept per warp while the warps run one after the other.
__global__ void uniform_loop_then_second_warp_kernel(const float* in, float* out, unsigned width) {
  const unsigned i = element();
  float v = in[i];
  for (unsigned offset = width / 2; offset > 0; offset /= 2) v += __shfl_xor_sync(full, v, static_cast<int>(offset));
  if (threadIdx.x / 32 == 1)
    for (unsigned offset = 1; offset < width; offset *= 2) v -= 0.5f * __shfl_up_sync(full, v, offset);
  out[i] = v;
}

__global__ void votes_above_two_warps_kernel(const int* in, int* out) {
  const unsigned i = element();
  const int v = in[i];
  int a = -1, b = -1;
  if (threadIdx.x >= 64) {
    const unsigned voters = __ballot_sync(full, v > 0);
    __syncwarp();
    a = __reduce_add_sync(full, v) + static_cast<int>(voters % 1000) + 1000 * __any_sync(full, v > 900);
  }
  if ((threadIdx.x >> 5) % 2 == 0) b = __reduce_max_sync(full, v);
  out[2 * i] = a;
  out[2 * i + 1] = b;
}

__global__ void second_warp_outside_mask_kernel(const int* in, int* out) {
  if (threadIdx.x >= 32 && threadIdx.x < 64) out[threadIdx.x] = __shfl_sync(0x0000ffffu, in[threadIdx.x], 0);
}

__global__ void records_in_first_warp_kernel(const int* in, int* out) {
  const auto tile = cg::tiled_partition<32>(cg::this_thread_block());
  int v = in[threadIdx.x];
  // An operator that holds state keeps cg::reduce on the records.
  if (threadIdx.x < 32) v = cg::reduce(tile, v, [k = 0](int a, int b) { return a + b + k; });
  out[threadIdx.x] = v;
}

template <class T, class Kernel, class... Args>
std::vector<T> run(Kernel kernel, const std::vector<T>& in, std::size_t outputs, block_shape block, unsigned blocks,
                   Args... args) {
  cg::device_buffer<T> din(in), dout(in.size() * outputs);
  cg::launch(kernel, {dim3(blocks), dim3(block.x, block.y, block.z)}, din.data(), dout.data(), args...);
  return dout.to_host();
}

}  // namespace

std::vector<float> blog_block_sum(const std::vector<float>& in, block_shape block, unsigned blocks) {
  return run(blog_block_sum_kernel, in, 1, block, blocks);
}
engine_choice blog_block_sum_engine() { return cohort::host::engine_for(blog_block_sum_kernel); }

std::vector<float> final_warp_sum(const std::vector<float>& in, unsigned block, unsigned blocks) {
  cg::device_buffer<float> din(in), dout(blocks);
  cg::launch(final_warp_sum_kernel, {dim3(blocks), dim3(block)}, din.data(), dout.data());
  return dout.to_host();
}
engine_choice final_warp_sum_engine() { return cohort::host::engine_for(final_warp_sum_kernel); }

std::vector<int> tile_leaders(const std::vector<int>& in, block_shape block, unsigned blocks) {
  return run(tile_leaders_kernel, in, 1, block, blocks);
}
engine_choice tile_leaders_engine() { return cohort::host::engine_for(tile_leaders_kernel); }

std::vector<float> per_warp_rows(const std::vector<float>& in, unsigned rows, unsigned block) {
  cg::device_buffer<float> din(in), dout(rows + block);
  cg::launch(per_warp_rows_kernel, {dim3(1), dim3(block)}, din.data(), dout.data(), rows);
  return dout.to_host();
}
engine_choice per_warp_rows_engine() { return cohort::host::engine_for(per_warp_rows_kernel); }

std::vector<float> launch_warp_rows(const std::vector<float>& in, unsigned rows, block_shape block, unsigned blocks) {
  cg::device_buffer<float> din(in), dout(rows);
  cg::launch(launch_warp_rows_kernel, {dim3(blocks), dim3(block.x, block.y, block.z)}, din.data(), dout.data(), rows);
  return dout.to_host();
}
engine_choice launch_warp_rows_engine() { return cohort::host::engine_for(launch_warp_rows_kernel); }

std::vector<float> csr_vector(const std::vector<int>& row_start, const std::vector<int>& cols,
                              const std::vector<float>& values, const std::vector<float>& x, block_shape block,
                              unsigned blocks) {
  const int rows = static_cast<int>(row_start.size()) - 1;
  cg::device_buffer<int> drow_start(row_start), dcols(cols);
  cg::device_buffer<float> dvalues(values), dx(x), dy(static_cast<std::size_t>(rows));
  cg::launch(csr_vector_kernel, {dim3(blocks), dim3(block.x, block.y, block.z)}, rows, drow_start.data(), dcols.data(),
             dvalues.data(), dx.data(), dy.data());
  return dy.to_host();
}
engine_choice csr_vector_engine() { return cohort::host::engine_for(csr_vector_kernel); }

std::vector<float> uniform_loop_then_second_warp(const std::vector<float>& in, unsigned width, unsigned block,
                                                 unsigned blocks) {
  return run(uniform_loop_then_second_warp_kernel, in, 1, {block}, blocks, width);
}
engine_choice uniform_loop_then_second_warp_engine() {
  return cohort::host::engine_for(uniform_loop_then_second_warp_kernel);
}

std::vector<int> votes_above_two_warps(const std::vector<int>& in, block_shape block, unsigned blocks) {
  return run(votes_above_two_warps_kernel, in, 2, block, blocks);
}
engine_choice votes_above_two_warps_engine() { return cohort::host::engine_for(votes_above_two_warps_kernel); }

void second_warp_outside_mask() { run(second_warp_outside_mask_kernel, std::vector<int>(64, 1), 1, {64}, 1); }
engine_choice second_warp_outside_mask_engine() { return cohort::host::engine_for(second_warp_outside_mask_kernel); }

std::vector<int> records_in_first_warp(const std::vector<int>& in, unsigned block) {
  return run(records_in_first_warp_kernel, in, 1, {block}, 1);
}
engine_choice records_in_first_warp_engine() { return cohort::host::engine_for(records_in_first_warp_kernel); }

}  // namespace warp_uniform_tests
