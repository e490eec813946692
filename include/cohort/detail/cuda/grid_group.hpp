// grid_group on the CUDA backend: the grid's shape from the built-in variables
// and the cluster registers, and cohort's grid barrier (grid_barrier.hpp).
#pragma once

#include <cuda_runtime.h>

#include "cohort/detail/cuda/grid_barrier.hpp"
#include "cohort/detail/cuda/special_registers.hpp"

namespace cohort {

class thread_group;
namespace detail::gpu {
struct grid_access;
}

class grid_group {
 public:
  struct arrival_token {
    detail::gpu::grid_arrival arrival;
  };

  // True in a cooperative launch, the only kind whose blocks may wait for each other.
  __device__ bool is_valid() const { return barrier_.valid(); }
  __device__ void sync() const { barrier_.sync(); }
  __device__ arrival_token barrier_arrive() const { return {barrier_.arrive()}; }
  __device__ void barrier_wait(arrival_token&& token) const { barrier_.wait(token.arrival); }

  __device__ static unsigned long long thread_rank() {
    return block_rank() * threads_per_block() + detail::gpu::linear_index(threadIdx, blockDim);
  }
  __device__ static unsigned long long block_rank() { return detail::gpu::linear_index(blockIdx, gridDim); }
  __device__ static unsigned long long cluster_rank() {
    return detail::gpu::linear_index(cluster_index(), dim_clusters());
  }
  __device__ static unsigned long long num_threads() { return num_blocks() * threads_per_block(); }
  __device__ static unsigned long long num_blocks() { return detail::gpu::dim_volume(gridDim); }
  __device__ static unsigned long long num_clusters() { return detail::gpu::dim_volume(dim_clusters()); }
  __device__ static unsigned long long size() { return num_threads(); }
  __device__ static dim3 dim_blocks() { return gridDim; }
  __device__ static dim3 dim_clusters() { return detail::gpu::cluster_grid_dim(); }
  __device__ static dim3 block_index() { return blockIdx; }
  __device__ static dim3 cluster_index() { return detail::gpu::cluster_index(); }
  __device__ static dim3 group_dim() { return gridDim; }

 private:
  __device__ explicit grid_group(detail::gpu::grid_barrier barrier) : barrier_(barrier) {}
  __device__ static unsigned long long threads_per_block() { return detail::gpu::dim_volume(blockDim); }

  detail::gpu::grid_barrier barrier_;

  friend __device__ grid_group this_grid();
  friend class thread_group;
  friend struct detail::gpu::grid_access;
};

__device__ inline grid_group this_grid() { return grid_group(detail::gpu::current_grid_barrier()); }

}  // namespace cohort
