// The CUDA backend's cluster primitives, from sm_90's PTX: the cluster
// barrier (barrier.cluster.arrive has release and .wait acquire semantics by
// default, so a split barrier publishes shared and global writes alike) and
// distributed shared memory through mapa (an address in another block's
// shared memory) and getctarank (whose it is); the cluster's indices are the
// special registers of special_registers.hpp. Before sm_90 every cluster is
// the block itself.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "cohort/backend.hpp"
#include "cohort/detail/cuda/runtime/special_registers.hpp"

namespace cohort::detail::gpu {

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define COHORT_CLUSTERS 1
#else
#define COHORT_CLUSTERS 0
#endif

__device__ __forceinline__ std::uint64_t cluster_arrive(call_site) {
#if COHORT_CLUSTERS
  asm volatile("barrier.cluster.arrive;" ::: "memory");
#endif
  return 0;
}

__device__ __forceinline__ void cluster_wait(std::uint64_t, call_site) {
#if COHORT_CLUSTERS
  asm volatile("barrier.cluster.wait;" ::: "memory");
#else
  __syncthreads();
#endif
}

__device__ __forceinline__ void cluster_sync(call_site where) { cluster_wait(cluster_arrive(where), where); }
// cluster_group::barrier_wait (the host backend spends the token, to catch a second wait on it).
__device__ __forceinline__ void cluster_barrier_wait(std::uint64_t& token, call_site where) {
  cluster_wait(token, where);
}

__device__ __forceinline__ void* map_shared(void* addr, int rank, call_site) {
#if COHORT_CLUSTERS
  void* mapped;
  asm("mapa.u64 %0, %1, %2;" : "=l"(mapped) : "l"(addr), "r"(rank));
  return mapped;
#else
  return addr;
#endif
}

__device__ __forceinline__ unsigned query_shared(const void* addr, call_site) {
#if COHORT_CLUSTERS
  unsigned rank;
  asm("getctarank.u64 %0, %1;" : "=r"(rank) : "l"(addr));
  return rank;
#else
  return 0;
#endif
}

}  // namespace cohort::detail::gpu
#undef COHORT_CLUSTERS
