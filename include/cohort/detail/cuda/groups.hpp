// The groups of the CUDA backend: the implicit ones, tiles, coalesced groups
// and their partitions, written from CUDA's built-in variables, warp
// intrinsics, PTX and libcu++ atomics; NVIDIA's <cooperative_groups.h> is not
// used (cohort is an implementation of it).
#pragma once

#include "cohort/detail/cuda/coalesced.hpp"
#include "cohort/groups/grid_group.hpp"
#include "cohort/groups/thread_block.hpp"
#include "cohort/detail/cuda/thread_group.hpp"
#include "cohort/detail/cuda/tiles.hpp"

namespace cohort {

template <class Group>
__device__ void sync(const Group& g) {
  g.sync();
}

template <class Group>
__device__ unsigned long long thread_rank(const Group& g) {
  return g.thread_rank();
}

template <class Group>
__device__ unsigned long long group_size(const Group& g) {
  return g.num_threads();
}

}  // namespace cohort
