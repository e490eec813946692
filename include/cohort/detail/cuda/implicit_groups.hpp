// The CUDA backend's primitives under thread_block and grid_group
// (include/cohort/groups/): the built-in variables and the cluster registers,
// the block's hardware barrier and cohort's grid barrier (grid_barrier.hpp).
#pragma once

#include <cuda_runtime.h>

#include "cohort/backend.hpp"
#include "cohort/detail/cuda/runtime/grid_barrier.hpp"
#include "cohort/detail/cuda/runtime/special_registers.hpp"

namespace cohort::detail::gpu {

__device__ __forceinline__ dim3 this_block_index() { return blockIdx; }
__device__ __forceinline__ dim3 this_block_dim() { return blockDim; }
__device__ __forceinline__ dim3 this_grid_dim() { return gridDim; }
__device__ __forceinline__ dim3 this_thread_index() { return threadIdx; }
__device__ __forceinline__ unsigned thread_rank_in_block() {
  return static_cast<unsigned>(linear_index(threadIdx, blockDim));
}
__device__ __forceinline__ unsigned long long threads_per_block() { return dim_volume(blockDim); }
__device__ __forceinline__ dim3 this_cluster_index() { return cluster_index(); }
__device__ __forceinline__ dim3 this_cluster_grid_dim() { return cluster_grid_dim(); }

// As in NVIDIA's implementation the split barrier is the hardware barrier
// taken whole at the wait: arriving costs nothing, and a thread leaves the
// wait only once every thread has arrived, which is what the model promises.
struct block_arrival_token {};
__device__ __forceinline__ void block_barrier_sync(call_site) { __syncthreads(); }
__device__ __forceinline__ block_arrival_token block_barrier_arrive(call_site) { return {}; }
__device__ __forceinline__ void block_barrier_wait(block_arrival_token, call_site) { __syncthreads(); }

// A grid_group carries the launch's grid barrier (its workspace, read once
// from the driver's registers by this_grid()).
using grid_state = grid_barrier;
using grid_arrival_token = grid_arrival;
__device__ __forceinline__ grid_state this_grid_state() { return current_grid_barrier(); }
__device__ __forceinline__ bool grid_barrier_valid(const grid_state& b) { return b.valid(); }
__device__ __forceinline__ void grid_barrier_sync(const grid_state& b, call_site) { b.sync(); }
__device__ __forceinline__ grid_arrival_token grid_barrier_arrive(const grid_state& b, call_site) { return b.arrive(); }
__device__ __forceinline__ void grid_barrier_wait(const grid_state& b, const grid_arrival_token& a, call_site) {
  b.wait(a);
}

// Every extern __shared__ array of a kernel starts at the same address; this
// one is declared 16-byte aligned so that any vector type can be placed there.
__device__ __forceinline__ unsigned char* dynamic_shared_memory() {
  extern __shared__ __align__(16) unsigned char cohort_dynamic_shared_memory[];
  return cohort_dynamic_shared_memory;
}

}  // namespace cohort::detail::gpu
