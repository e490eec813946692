// thread_group on the CUDA backend: any group with its type erased. A kind tag
// says which group it was made from and a small payload carries what that
// group needs beyond the built-in variables (the grid: its barrier handle).
// Tiles and coalesced groups join by adding a kind and a payload member.
#pragma once

#include <cuda_runtime.h>

#include "cohort/cuda/grid_barrier.hpp"
#include "cohort/cuda/grid_group.hpp"
#include "cohort/cuda/thread_block.hpp"

namespace cohort {

class thread_group {
 public:
  enum class kind : unsigned char { thread_block, grid };

  __device__ thread_group(const thread_block&) : kind_(kind::thread_block), payload_{} {}
  __device__ thread_group(const grid_group& g) : kind_(kind::grid), payload_{g.barrier_} {}

  __device__ void sync() const {
    if (kind_ == kind::grid)
      payload_.grid.sync();
    else
      thread_block::sync();
  }
  __device__ unsigned long long thread_rank() const {
    return kind_ == kind::grid ? grid_group::thread_rank() : thread_block::thread_rank();
  }
  __device__ unsigned long long num_threads() const {
    return kind_ == kind::grid ? grid_group::num_threads() : thread_block::num_threads();
  }
  __device__ unsigned long long size() const { return num_threads(); }
  __device__ kind get_type() const { return kind_; }

 private:
  union payload {
    detail::gpu::grid_barrier grid;
  };

  kind kind_;
  payload payload_;
};

}  // namespace cohort
