// Kernels of rounds_test.cpp. Built by clang with the loops pass
// (tests/loops/CMakeLists.txt); loops_rounds_remarks asserts which of them
// run their loop in rounds.
#include "rounds_kernels.hpp"

#include <cohort/cohort.hpp>
#include <cstddef>

namespace cg = cohort;

namespace rounds_tests {

namespace {

__device__ unsigned thread_rank() { return (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x; }
__device__ unsigned block_threads() { return blockDim.x * blockDim.y * blockDim.z; }

__global__ void scaled_grid_stride_kernel(const float* in, float* out, unsigned n) {
  const unsigned stride = gridDim.x * block_threads();
  for (unsigned i = blockIdx.x * block_threads() + thread_rank(); i < n; i += stride) out[i] += 2.0f * in[i] + 1.0f;
}

__global__ void block_sums_kernel(const float* in, float* sums, float* block_sums, unsigned n, unsigned active) {
  double* partial = cg::dynamic_shared<double>();
  const unsigned tid = thread_rank();
  partial[tid] = 0;
  if (tid < active)
    for (int i = blockIdx.x * block_threads() + tid; static_cast<unsigned>(i) < n; i += gridDim.x * block_threads())
      partial[tid] += in[i];
  __syncthreads();
  sums[blockIdx.x * block_threads() + tid] = static_cast<float>(partial[tid]);
  __syncthreads();
  if (tid == 0) {
    double sum = 0;
    for (unsigned t = 0; t < block_threads(); ++t) sum += partial[t];
    block_sums[blockIdx.x] = static_cast<float>(sum);
  }
}

__global__ void sums_to_first_negative_kernel(const float* in, float* sums, unsigned n) {
  const unsigned rank = blockIdx.x * block_threads() + thread_rank();
  sums[rank] = 0;
  for (unsigned i = rank; i < n; i += gridDim.x * block_threads()) {
    if (in[i] < 0) break;
    sums[rank] += in[i];
  }
}

__global__ void atomic_histogram_kernel(const int* in, int* counters, unsigned n) {
  for (unsigned i = blockIdx.x * block_threads() + thread_rank(); i < n; i += gridDim.x * block_threads())
    atomicAdd(&counters[(in[i] % 8 + 8) % 8], 1);
}

std::size_t threads_of(dim3 grid, dim3 block) {
  return std::size_t{grid.x} * grid.y * grid.z * block.x * block.y * block.z;
}

}  // namespace

std::vector<float> scaled_grid_stride(const std::vector<float>& in, dim3 grid, dim3 block) {
  cg::device_buffer<float> input(in), out(std::vector<float>(in.size(), 0.5f));
  cg::launch(scaled_grid_stride_kernel, {grid, block}, input.data(), out.data(), unsigned(in.size()));
  return out.to_host();
}
cohort::host::engine_choice scaled_grid_stride_engine() { return cohort::host::engine_for(scaled_grid_stride_kernel); }

std::vector<float> block_sums(const std::vector<float>& in, dim3 grid, dim3 block, unsigned active) {
  const std::size_t threads = threads_of(grid, block);
  cg::device_buffer<float> input(in), sums(threads), per_block(grid.x);
  cg::launch(block_sums_kernel, {grid, block, sizeof(double) * block.x * block.y * block.z}, input.data(), sums.data(),
             per_block.data(), unsigned(in.size()), active);
  std::vector<float> out = sums.to_host();
  const std::vector<float> blocks = per_block.to_host();
  out.insert(out.end(), blocks.begin(), blocks.end());
  return out;
}
cohort::host::engine_choice block_sums_engine() { return cohort::host::engine_for(block_sums_kernel); }

std::vector<float> sums_to_first_negative(const std::vector<float>& in, dim3 grid, dim3 block) {
  cg::device_buffer<float> input(in), sums(threads_of(grid, block));
  cg::launch(sums_to_first_negative_kernel, {grid, block}, input.data(), sums.data(), unsigned(in.size()));
  return sums.to_host();
}
cohort::host::engine_choice sums_to_first_negative_engine() {
  return cohort::host::engine_for(sums_to_first_negative_kernel);
}

std::vector<int> atomic_histogram(const std::vector<int>& in, dim3 grid, dim3 block) {
  cg::device_buffer<int> input(in), counters(8);
  cg::launch(atomic_histogram_kernel, {grid, block}, input.data(), counters.data(), unsigned(in.size()));
  return counters.to_host();
}
cohort::host::engine_choice atomic_histogram_engine() { return cohort::host::engine_for(atomic_histogram_kernel); }

}  // namespace rounds_tests
