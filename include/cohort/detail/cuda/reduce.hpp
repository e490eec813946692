// The fold primitives of the CUDA backend, behind reduce, the scans and the
// *_update forms, on tiles of every size, coalesced groups, thread blocks and
// (in a cooperative launch) the grid (group_fold.hpp): values fold in rank
// order; one member applies the total to the atomic or pointer (the group's
// last member for the scans, as in NVIDIA's implementation).
#pragma once

#include <cuda_runtime.h>

#include "cohort/detail/cuda/atomic_update.hpp"
#include "cohort/detail/cuda/collectives/group_fold.hpp"

namespace cohort::detail::gpu {

// Each member's result of the fold `Kind` (the total, or its prefix).
template <fold_kind Kind, class Group, class T, class Op>
__device__ __forceinline__ T fold_value(const Group& group, const T& v, Op& op, call_site) {
  no_update none;
  return fold<Kind>(group, v, op, none);
}

// The same, the group's total also combined into `atomic` by one member: op(old, total).
template <fold_kind Kind, class Group, class A, class T, class Op>
__device__ __forceinline__ T fold_update(const Group& group, A& atomic, const T& v, Op& op, call_site) {
  auto update = [&](const T& total) { return atomic_apply(atomic, total, op); };
  return fold<Kind>(group, v, op, update);
}

template <class Group, class A, class T, class Op>
__device__ __forceinline__ void reduce_store_atomic(const Group& group, A& atomic, const T& v, Op& op, call_site) {
  auto update = [&](const T& total) {
    atomic.store(total, cuda::memory_order_relaxed);
    return total;
  };
  fold<fold_kind::reduce>(group, v, op, update);
}

template <class Group, class T, class Op>
__device__ __forceinline__ void reduce_store_pointer(const Group& group, T* ptr, const T& v, Op& op, call_site) {
  auto update = [ptr](const T& total) { return *ptr = total; };
  fold<fold_kind::reduce>(group, v, op, update);
}

}  // namespace cohort::detail::gpu
