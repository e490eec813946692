// thread_block on the CUDA backend: the block's built-in variables and its
// hardware barrier.
#pragma once

#include <cuda_runtime.h>

#include "cohort/detail/cuda/special_registers.hpp"

namespace cohort {

class thread_block {
 public:
  // As in NVIDIA's implementation the split barrier is the hardware barrier
  // taken whole at the wait: arriving costs nothing, and a thread leaves the
  // wait only once every thread has arrived, which is what the model promises.
  struct arrival_token {};

  __device__ static void sync() { __syncthreads(); }
  __device__ arrival_token barrier_arrive() const { return {}; }
  __device__ void barrier_wait(arrival_token&&) const { __syncthreads(); }

  __device__ static unsigned thread_rank() {
    return static_cast<unsigned>(detail::gpu::linear_index(threadIdx, blockDim));
  }
  __device__ static unsigned num_threads() { return blockDim.x * blockDim.y * blockDim.z; }
  __device__ static unsigned size() { return num_threads(); }
  __device__ static dim3 group_index() { return blockIdx; }
  __device__ static dim3 thread_index() { return threadIdx; }
  __device__ static dim3 dim_threads() { return blockDim; }
  __device__ static dim3 group_dim() { return blockDim; }

 private:
  thread_block() = default;
  friend __device__ thread_block this_thread_block();
};

__device__ inline thread_block this_thread_block() { return {}; }

}  // namespace cohort
