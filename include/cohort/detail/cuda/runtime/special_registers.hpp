// The one home of the PTX special registers the groups read that CUDA's
// built-in variables do not give: the driver's grid workspace and the cluster
// coordinates. (The grid barrier's volatile re-reads of %ctaid and %tid, and
// the lane registers of lanes.hpp, are instructions of their own paths.)
#pragma once

#include <cuda_runtime.h>

namespace cohort::detail::gpu {

// The workspace the driver hands a cooperative launch. Its layout is the ABI
// NVIDIA's runtime and <cooperative_groups.h> share: a size (16 on the driver
// tested), then the 32-bit word NVIDIA's grid barrier counts on. The PTX ISA
// calls %envreg0..31 "driver-defined"; the driver puts the workspace's address
// in %envreg1 (high half) and %envreg2 (low half), 0 when there is none.
// A plain launch does not always have none: on the driver tested (CUDA 13,
// 580.x) a plain launch on a stream that has had cooperative launches sees that
// stream's workspace, with %envreg values and workspace contents identical to
// a cooperative launch's. Nothing a kernel can read tells the two apart, so
// is_valid() answers, as NVIDIA's does, whether the launch has a workspace.
struct driver_workspace {
  unsigned size;
  unsigned barrier;
};

__device__ __forceinline__ driver_workspace* grid_workspace() {
  unsigned high, low;
  asm("mov.u32 %0, %%envreg1;" : "=r"(high));
  asm("mov.u32 %0, %%envreg2;" : "=r"(low));
  return reinterpret_cast<driver_workspace*>((static_cast<unsigned long long>(high) << 32) | low);
}

// The cluster registers (sm_90). sm_90 reports a launch without clusters as a
// grid of 1x1x1 clusters; older devices have no clusters, so each answers as
// if every block were its own cluster.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define COHORT_CLUSTER_REGISTERS 1
#define COHORT_READ_DIM3(reg)                \
  unsigned x, y, z;                          \
  asm("mov.u32 %0, %%" reg ".x;" : "=r"(x)); \
  asm("mov.u32 %0, %%" reg ".y;" : "=r"(y)); \
  asm("mov.u32 %0, %%" reg ".z;" : "=r"(z)); \
  return dim3(x, y, z)
#define COHORT_READ_U32(reg)               \
  unsigned v;                              \
  asm("mov.u32 %0, %%" reg ";" : "=r"(v)); \
  return v
#else
#define COHORT_CLUSTER_REGISTERS 0
#endif

// The grid measured in clusters, and this block's cluster.
__device__ __forceinline__ dim3 cluster_grid_dim() {
#if COHORT_CLUSTER_REGISTERS
  COHORT_READ_DIM3("nclusterid");
#else
  return gridDim;
#endif
}

__device__ __forceinline__ dim3 cluster_index() {
#if COHORT_CLUSTER_REGISTERS
  COHORT_READ_DIM3("clusterid");
#else
  return blockIdx;
#endif
}

// The cluster measured in blocks, and this block's place in it.
__device__ __forceinline__ dim3 cluster_dim() {
#if COHORT_CLUSTER_REGISTERS
  COHORT_READ_DIM3("cluster_nctaid");
#else
  return dim3(1, 1, 1);
#endif
}

__device__ __forceinline__ dim3 cluster_block_index() {
#if COHORT_CLUSTER_REGISTERS
  COHORT_READ_DIM3("cluster_ctaid");
#else
  return dim3(0, 0, 0);
#endif
}

__device__ __forceinline__ unsigned cluster_block_rank() {
#if COHORT_CLUSTER_REGISTERS
  COHORT_READ_U32("cluster_ctarank");
#else
  return 0;
#endif
}

__device__ __forceinline__ unsigned cluster_block_count() {
#if COHORT_CLUSTER_REGISTERS
  COHORT_READ_U32("cluster_nctarank");
#else
  return 1;
#endif
}

#undef COHORT_READ_DIM3
#undef COHORT_READ_U32
#undef COHORT_CLUSTER_REGISTERS

__device__ __forceinline__ unsigned long long linear_index(dim3 index, dim3 extent) {
  return (static_cast<unsigned long long>(index.z) * extent.y + index.y) * extent.x + index.x;
}

__device__ __forceinline__ unsigned long long dim_volume(dim3 d) {
  return static_cast<unsigned long long>(d.x) * d.y * d.z;
}

}  // namespace cohort::detail::gpu
