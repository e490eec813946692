// reduce, reduce_update_async and reduce_store_async on the CUDA backend, on
// tiles of every size, coalesced groups, thread blocks and (in a cooperative
// launch) the grid. Values fold in rank order (docs/collectives.md); one
// member applies the total to the atomic or pointer.
#pragma once

#include <cuda_runtime.h>

#include <type_traits>
#include <utility>

#include "cohort/detail/cuda/atomic_update.hpp"
#include "cohort/detail/cuda/group_fold.hpp"
#include "cohort/collectives/functional.hpp"

namespace cohort {

namespace detail::gpu {
// NVIDIA's rule: the operator returns the type of the values it combines.
template <class Op, class T>
inline constexpr bool combines = std::is_same_v<std::remove_cvref_t<std::invoke_result_t<Op&, T, T>>, T>;
}  // namespace detail::gpu

template <detail::gpu::collective_group Group, class TyArg, class TyOp>
__device__ auto reduce(const Group& group, TyArg&& val, TyOp&& op) -> decltype(op(val, val)) {
  using T = std::remove_cvref_t<TyArg>;
  static_assert(detail::gpu::combines<TyOp, T>, "reduce: the operator must return the type of the values");
  detail::gpu::no_update none;
  return detail::gpu::fold<detail::gpu::fold_kind::reduce>(group, static_cast<const T&>(val), op, none);
}

// The group's total is combined into `atomic` by one member: op(old, total).
template <detail::gpu::collective_group Group, class TyAtomic, class TyArg, class TyOp>
  requires detail::gpu::atomic_reference<std::remove_reference_t<TyAtomic>, std::remove_cvref_t<TyArg>>
__device__ void reduce_update_async(const Group& group, TyAtomic&& atomic, TyArg&& val, TyOp&& op) {
  using T = std::remove_cvref_t<TyArg>;
  static_assert(detail::gpu::combines<TyOp, T>, "reduce_update_async: the operator must return the type of the values");
  auto update = [&](const T& total) { return detail::gpu::atomic_apply(atomic, total, op); };
  detail::gpu::fold<detail::gpu::fold_kind::reduce>(group, static_cast<const T&>(val), op, update);
}

// The group's total is stored into `atomic` by one member.
template <detail::gpu::collective_group Group, class TyAtomic, class TyArg, class TyOp>
  requires detail::gpu::atomic_reference<std::remove_reference_t<TyAtomic>, std::remove_cvref_t<TyArg>>
__device__ void reduce_store_async(const Group& group, TyAtomic&& atomic, TyArg&& val, TyOp&& op) {
  using T = std::remove_cvref_t<TyArg>;
  static_assert(detail::gpu::combines<TyOp, T>, "reduce_store_async: the operator must return the type of the values");
  auto update = [&](const T& total) {
    atomic.store(total, cuda::memory_order_relaxed);
    return total;
  };
  detail::gpu::fold<detail::gpu::fold_kind::reduce>(group, static_cast<const T&>(val), op, update);
}

// The group's total is stored through `ptr` by one member (a plain store).
template <detail::gpu::collective_group Group, class T, class TyArg, class TyOp>
  requires std::is_same_v<std::remove_cvref_t<TyArg>, T>
__device__ void reduce_store_async(const Group& group, T* ptr, TyArg&& val, TyOp&& op) {
  static_assert(detail::gpu::combines<TyOp, T>, "reduce_store_async: the operator must return the type of the values");
  auto update = [ptr](const T& total) { return *ptr = total; };
  detail::gpu::fold<detail::gpu::fold_kind::reduce>(group, static_cast<const T&>(val), op, update);
}

}  // namespace cohort
