// Kernels with grid barriers (grid_kernels.hpp). Built by clang with the loops pass.
#include "grid_kernels.hpp"

#include <cohort/cohort.hpp>

namespace cg = cohort;

namespace {

__global__ void grid_rounds_kernel(const float* in, float* exchange, float* out, unsigned rounds) {
  __shared__ float mirrored[1024];
  float* scratch = cg::dynamic_shared<float>();
  cg::grid_group grid = cg::this_grid();
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned n = gridDim.x * blockDim.x;
  float v = in[i];
  mirrored[threadIdx.x] = v * 0.5f;
  scratch[threadIdx.x] = v - 1.0f;
  for (unsigned r = 0; r < rounds; ++r) {
    exchange[i] = v;
    grid.sync();
    v += exchange[(i + 1 + r * blockDim.x) % n] * 0.25f;  // a thread of another block, where there is one
    __syncthreads();
    grid.sync();  // every thread has read the round's values before the next round writes
  }
  __syncthreads();
  out[i] = v + mirrored[blockDim.x - 1 - threadIdx.x] + scratch[threadIdx.x];
}

__global__ void grid_normalize_kernel(const int* in, int* block_sums, int* total, int* out) {
  __shared__ int values[1024];
  cg::thread_block block = cg::this_thread_block();
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  values[threadIdx.x] = in[i];
  block.sync();
  if (threadIdx.x == 0) {
    int s = 0;
    for (unsigned k = 0; k < blockDim.x; ++k) s += values[k];
    block_sums[blockIdx.x] = s;
  }
  cg::this_grid().sync();
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    int s = 0;
    for (unsigned b = 0; b < gridDim.x; ++b) s += block_sums[b];
    *total = s;
  }
  cg::this_grid().sync();
  out[i] = values[threadIdx.x] * 3 - *total;
}

// A uniform value of each block's own (a recurrence, not an induction variable
// LLVM could recompute from the round) kept across a grid barrier, then across a
// block barrier in a region that reads it without redefining it.
__global__ void grid_block_values_kernel(unsigned* out, unsigned rounds) {
  unsigned value = blockIdx.x + 1;
  for (unsigned r = 0; r < rounds; ++r) {
    cg::this_grid().sync();
    const unsigned mine = value + threadIdx.x;
    __syncthreads();
    out[(blockIdx.x * rounds + r) * blockDim.x + threadIdx.x] = mine ^ value;
    value = value * 1103515245u + 12345u + blockIdx.x;
  }
}

__global__ void grid_left_kernel(int* out, unsigned leaver) {
  if (blockIdx.x == leaver) return;
  out[blockIdx.x] = 1;
  cg::this_grid().sync();  // left_barrier_line
  out[blockIdx.x] = 2;
}
__global__ void grid_not_cooperative_kernel(int* out) {
  out[blockIdx.x] = 1;
  cg::this_grid().sync();  // not_cooperative_line
}

__global__ void grid_reduce_kernel(int* out) {
  const cg::grid_group grid = cg::this_grid();
  out[grid.thread_rank()] = cg::reduce(grid, static_cast<int>(grid.thread_rank() % 7), cg::plus<int>());
}

// After the grid barrier every thread reads the next block's value, and each
// block's first warp sums its lanes' (a shuffle in warp-uniform control flow).
__global__ void grid_warp_sums_kernel(int* values, int* out) {
  const cg::grid_group grid = cg::this_grid();
  values[grid.thread_rank()] = static_cast<int>(grid.thread_rank() % 5);
  grid.sync();
  int v = values[(grid.thread_rank() + blockDim.x) % grid.num_threads()];
  if (threadIdx.x < 32)
    for (int offset = 16; offset > 0; offset /= 2) v += __shfl_xor_sync(0xffffffffu, v, offset);
  out[grid.thread_rank()] = v;
}

}  // namespace

namespace loops_tests {

const unsigned left_barrier_line = 68, not_cooperative_line = 73;

std::vector<float> grid_rounds(const std::vector<float>& in, unsigned blocks, unsigned block, unsigned rounds) {
  cg::device_buffer<float> din(in), exchange(in.size()), dout(in.size());
  cg::launch_cooperative(grid_rounds_kernel, {dim3(blocks), dim3(block), block * sizeof(float)}, din.data(),
                         exchange.data(), dout.data(), rounds);
  return dout.to_host();
}
engine_choice grid_rounds_engine() { return cohort::host::engine_for(grid_rounds_kernel); }

std::vector<float> grid_rounds_in_clusters(const std::vector<float>& in, unsigned blocks, unsigned block,
                                           unsigned rounds, unsigned cluster) {
  cg::device_buffer<float> din(in), exchange(in.size()), dout(in.size());
  cg::launch_config config{dim3(blocks), dim3(block), block * sizeof(float)};
  config.cluster = dim3(cluster);
  cg::launch_cooperative(grid_rounds_kernel, config, din.data(), exchange.data(), dout.data(), rounds);
  return dout.to_host();
}

std::vector<int> grid_normalize(const std::vector<int>& in, unsigned blocks, unsigned block) {
  cg::device_buffer<int> din(in), sums(blocks), total(1), dout(in.size());
  cg::launch_cooperative(grid_normalize_kernel, {dim3(blocks), dim3(block)}, din.data(), sums.data(), total.data(),
                         dout.data());
  std::vector<int> result = dout.to_host();
  result.push_back(total.to_host()[0]);
  return result;
}
engine_choice grid_normalize_engine() { return cohort::host::engine_for(grid_normalize_kernel); }

std::vector<unsigned> grid_block_values(unsigned blocks, unsigned block, unsigned rounds) {
  cg::device_buffer<unsigned> out(blocks * block * rounds);
  cg::launch_cooperative(grid_block_values_kernel, {dim3(blocks), dim3(block)}, out.data(), rounds);
  return out.to_host();
}
engine_choice grid_block_values_engine() { return cohort::host::engine_for(grid_block_values_kernel); }

void grid_barrier_left(unsigned blocks, unsigned block, unsigned leaver) {
  cg::device_buffer<int> out(blocks);
  cg::launch_cooperative(grid_left_kernel, {dim3(blocks), dim3(block)}, out.data(), leaver);
}

void grid_barrier_not_cooperative(unsigned blocks, unsigned block) {
  cg::device_buffer<int> out(blocks);
  cg::launch(grid_not_cooperative_kernel, {dim3(blocks), dim3(block)}, out.data());
}

std::vector<int> grid_reduce(unsigned blocks, unsigned block) {
  cg::device_buffer<int> out(blocks * block);
  cg::launch_cooperative(grid_reduce_kernel, {dim3(blocks), dim3(block)}, out.data());
  return out.to_host();
}
engine_choice grid_reduce_engine() { return cohort::host::engine_for(grid_reduce_kernel); }

std::vector<int> grid_warp_sums(unsigned blocks, unsigned block) {
  cg::device_buffer<int> values(blocks * block), out(blocks * block);
  cg::launch_cooperative(grid_warp_sums_kernel, {dim3(blocks), dim3(block)}, values.data(), out.data());
  return out.to_host();
}
engine_choice grid_warp_sums_engine() { return cohort::host::engine_for(grid_warp_sums_kernel); }

}  // namespace loops_tests
