// Kernels recording the order of a block's threads. Built by clang with the
// loops pass (tests/loops/CMakeLists.txt).
#include "order_kernels.hpp"

#include <cohort/cohort.hpp>

namespace cg = cohort;

namespace order_tests {

namespace {

__device__ unsigned rank_in_block() { return threadIdx.x + blockDim.x * threadIdx.y; }

__device__ __forceinline__ void take_ticket(unsigned* tickets, unsigned* order) {
  const unsigned ticket = atomicAdd(&tickets[blockIdx.x], 1u);
  order[blockIdx.x * blockDim.x * blockDim.y + ticket] = rank_in_block();
}

__global__ void barrier_free_kernel(unsigned* tickets, unsigned* order) { take_ticket(tickets, order); }

__global__ void uniform_barrier_kernel(unsigned* tickets, unsigned* order) {
  __syncthreads();
  take_ticket(tickets, order);
}

__global__ void divergent_barrier_kernel(unsigned* tickets, unsigned* order) {
  if (rank_in_block() % 3 == 0) return;
  __syncthreads();
  take_ticket(tickets, order);
}

}  // namespace

std::vector<unsigned> arrival_order(shape kind, unsigned blocks, unsigned x, unsigned y) {
  cg::device_buffer<unsigned> tickets(std::vector<unsigned>(blocks, 0u));
  cg::device_buffer<unsigned> order(std::vector<unsigned>(blocks * x * y, 0xffffffffu));
  const cg::launch_config config{dim3(blocks), dim3(x, y)};
  switch (kind) {
    case shape::barrier_free:
      cg::launch(barrier_free_kernel, config, tickets.data(), order.data());
      break;
    case shape::uniform_barrier:
      cg::launch(uniform_barrier_kernel, config, tickets.data(), order.data());
      break;
    case shape::divergent_barrier:
      cg::launch(divergent_barrier_kernel, config, tickets.data(), order.data());
      break;
  }
  return order.to_host();
}

engine_choice arrival_order_engine(shape kind) {
  switch (kind) {
    case shape::barrier_free:
      return cohort::host::engine_for(barrier_free_kernel);
    case shape::uniform_barrier:
      return cohort::host::engine_for(uniform_barrier_kernel);
    default:
      return cohort::host::engine_for(divergent_barrier_kernel);
  }
}

}  // namespace order_tests
