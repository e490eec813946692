// Kernels of block_sequence_test.cpp. Built by clang with the loops pass
// (tests/loops/CMakeLists.txt).
#include "block_sequence_kernels.hpp"

#include <cassert>
#include <cohort/cohort.hpp>
#include <cstddef>

namespace cg = cohort;

namespace block_sequence_tests {

namespace {

// blockIdx read per block, and an index computed from it once per block (a
// value the pass computes where the block starts, not once per call).
__global__ void block_indices_kernel(unsigned* codes, unsigned* global_x) {
  const unsigned rank = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  const unsigned block_rank = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
  const unsigned at = block_rank * blockDim.x * blockDim.y * blockDim.z + rank;
  codes[at] = blockIdx.x + 100 * blockIdx.y + 10000 * blockIdx.z;
  global_x[at] = blockIdx.x * blockDim.x + threadIdx.x;
}

__global__ void misaligned_atomic_kernel(unsigned* out, unsigned* counter, uint3 failing, uint3 thread) {
  const bool fails = blockIdx.x == failing.x && blockIdx.y == failing.y && blockIdx.z == failing.z &&
                     threadIdx.x == thread.x && threadIdx.y == thread.y && threadIdx.z == thread.z;
  if (fails) atomicAdd(reinterpret_cast<unsigned*>(reinterpret_cast<char*>(counter) + 1), 1u);
  const unsigned rank = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  const unsigned block_rank = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
  out[block_rank * blockDim.x * blockDim.y * blockDim.z + rank] = blockIdx.x * blockDim.x + threadIdx.x;
}

__global__ void asserting_kernel(unsigned* out, uint3 failing, uint3 thread) {
  const bool fails = blockIdx.x == failing.x && blockIdx.y == failing.y && blockIdx.z == failing.z &&
                     threadIdx.x == thread.x && threadIdx.y == thread.y && threadIdx.z == thread.z;
  assert(!fails && "the chosen thread");
  out[blockIdx.x * blockDim.x + threadIdx.x] = threadIdx.x;
}

__global__ void faulting_kernel(unsigned* out, unsigned* nowhere, uint3 failing) {
  const bool fails = blockIdx.x == failing.x && blockIdx.y == failing.y && blockIdx.z == failing.z;
  unsigned* target = fails ? nowhere : out;
  target[threadIdx.x] = blockIdx.x;
}

std::string failure_of(auto launch) {
  try {
    launch();
  } catch (const cg::error& e) {
    return e.what();
  }
  return {};
}

std::size_t threads_of(dim3 grid, dim3 block) {
  return std::size_t{grid.x} * grid.y * grid.z * block.x * block.y * block.z;
}

}  // namespace

indices block_indices(dim3 grid, dim3 block) {
  cg::device_buffer<unsigned> codes(threads_of(grid, block)), global_x(threads_of(grid, block));
  cg::launch(block_indices_kernel, {grid, block}, codes.data(), global_x.data());
  return {codes.to_host(), global_x.to_host()};
}
cohort::host::engine_choice block_indices_engine() { return cohort::host::engine_for(block_indices_kernel); }

std::string misaligned_atomic_failure(dim3 grid, dim3 block, uint3 failing, uint3 thread) {
  cg::device_buffer<unsigned> out(threads_of(grid, block)), counter(2);
  return failure_of(
      [&] { cg::launch(misaligned_atomic_kernel, {grid, block}, out.data(), counter.data(), failing, thread); });
}
std::vector<unsigned> no_misaligned_atomic(dim3 grid, dim3 block) {
  cg::device_buffer<unsigned> out(threads_of(grid, block)), counter(2);
  cg::launch(misaligned_atomic_kernel, {grid, block}, out.data(), counter.data(), uint3{grid.x, 0, 0}, uint3{0, 0, 0});
  return out.to_host();
}
cohort::host::engine_choice misaligned_atomic_engine() { return cohort::host::engine_for(misaligned_atomic_kernel); }

std::string failed_assertion(dim3 grid, dim3 block, uint3 failing, uint3 thread) {
  cg::device_buffer<unsigned> out(threads_of(grid, block));
  return failure_of([&] { cg::launch(asserting_kernel, {grid, block}, out.data(), failing, thread); });
}
cohort::host::engine_choice assertion_engine() { return cohort::host::engine_for(asserting_kernel); }

std::string fault(dim3 grid, dim3 block, uint3 failing) {
  cg::device_buffer<unsigned> out(block.x);
  return failure_of(
      [&] { cg::launch(faulting_kernel, {grid, block}, out.data(), static_cast<unsigned*>(nullptr), failing); });
}
cohort::host::engine_choice fault_engine() { return cohort::host::engine_for(faulting_kernel); }

}  // namespace block_sequence_tests
