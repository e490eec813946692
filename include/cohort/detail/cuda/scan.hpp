// inclusive_scan, exclusive_scan, inclusive_scan_update and
// exclusive_scan_update on the CUDA backend, on tiles of every size,
// coalesced groups, thread blocks and (in a cooperative launch) the grid.
// Values fold in rank order; an exclusive scan gives rank 0 the operator's
// identity, or T{} for an operator cohort does not know (docs/collectives.md).
// The *_update forms start the scan from the atomic's old value and leave
// op(old, total) in it; the group's last member updates the atomic, as in
// NVIDIA's implementation.
#pragma once

#include <cuda_runtime.h>

#include <type_traits>
#include <utility>

#include "cohort/detail/cuda/reduce.hpp"

namespace cohort {

namespace detail::gpu {

template <fold_kind Kind, class Group, class T, class Op>
__device__ T scan(const Group& group, const T& v, Op& op) {
  static_assert(combines<Op, T>, "inclusive_scan/exclusive_scan: the operator must return the type of the values");
  no_update none;
  return fold<Kind>(group, v, op, none);
}

template <fold_kind Kind, class Group, class A, class T, class Op>
__device__ T scan_update(const Group& group, A& atomic, const T& v, Op& op) {
  static_assert(combines<Op, T>, "*_scan_update: the operator must return the type of the values");
  auto update = [&](const T& total) { return atomic_apply(atomic, total, op); };
  return fold<Kind>(group, v, op, update);
}

}  // namespace detail::gpu

template <detail::gpu::collective_group Group, class TyVal, class TyFn>
__device__ auto inclusive_scan(const Group& group, TyVal&& val, TyFn&& op) -> decltype(op(val, val)) {
  using T = std::remove_cvref_t<TyVal>;
  return detail::gpu::scan<detail::gpu::fold_kind::inclusive_scan>(group, static_cast<const T&>(val), op);
}

template <detail::gpu::collective_group Group, class TyVal>
__device__ std::remove_cvref_t<TyVal> inclusive_scan(const Group& group, TyVal&& val) {
  using T = std::remove_cvref_t<TyVal>;
  plus<T> op;
  return detail::gpu::scan<detail::gpu::fold_kind::inclusive_scan>(group, static_cast<const T&>(val), op);
}

template <detail::gpu::collective_group Group, class TyVal, class TyFn>
__device__ auto exclusive_scan(const Group& group, TyVal&& val, TyFn&& op) -> decltype(op(val, val)) {
  using T = std::remove_cvref_t<TyVal>;
  return detail::gpu::scan<detail::gpu::fold_kind::exclusive_scan>(group, static_cast<const T&>(val), op);
}

template <detail::gpu::collective_group Group, class TyVal>
__device__ std::remove_cvref_t<TyVal> exclusive_scan(const Group& group, TyVal&& val) {
  using T = std::remove_cvref_t<TyVal>;
  plus<T> op;
  return detail::gpu::scan<detail::gpu::fold_kind::exclusive_scan>(group, static_cast<const T&>(val), op);
}

template <detail::gpu::collective_group Group, class TyAtomic, class TyVal, class TyFn>
  requires detail::gpu::atomic_reference<std::remove_reference_t<TyAtomic>, std::remove_cvref_t<TyVal>>
__device__ auto inclusive_scan_update(const Group& group, TyAtomic&& atomic, TyVal&& val, TyFn&& op)
    -> decltype(op(val, val)) {
  using T = std::remove_cvref_t<TyVal>;
  return detail::gpu::scan_update<detail::gpu::fold_kind::inclusive_scan>(group, atomic, static_cast<const T&>(val),
                                                                          op);
}

template <detail::gpu::collective_group Group, class TyAtomic, class TyVal>
  requires detail::gpu::atomic_reference<std::remove_reference_t<TyAtomic>, std::remove_cvref_t<TyVal>>
__device__ std::remove_cvref_t<TyVal> inclusive_scan_update(const Group& group, TyAtomic&& atomic, TyVal&& val) {
  using T = std::remove_cvref_t<TyVal>;
  plus<T> op;
  return detail::gpu::scan_update<detail::gpu::fold_kind::inclusive_scan>(group, atomic, static_cast<const T&>(val),
                                                                          op);
}

template <detail::gpu::collective_group Group, class TyAtomic, class TyVal, class TyFn>
  requires detail::gpu::atomic_reference<std::remove_reference_t<TyAtomic>, std::remove_cvref_t<TyVal>>
__device__ auto exclusive_scan_update(const Group& group, TyAtomic&& atomic, TyVal&& val, TyFn&& op)
    -> decltype(op(val, val)) {
  using T = std::remove_cvref_t<TyVal>;
  return detail::gpu::scan_update<detail::gpu::fold_kind::exclusive_scan>(group, atomic, static_cast<const T&>(val),
                                                                          op);
}

template <detail::gpu::collective_group Group, class TyAtomic, class TyVal>
  requires detail::gpu::atomic_reference<std::remove_reference_t<TyAtomic>, std::remove_cvref_t<TyVal>>
__device__ std::remove_cvref_t<TyVal> exclusive_scan_update(const Group& group, TyAtomic&& atomic, TyVal&& val) {
  using T = std::remove_cvref_t<TyVal>;
  plus<T> op;
  return detail::gpu::scan_update<detail::gpu::fold_kind::exclusive_scan>(group, atomic, static_cast<const T&>(val),
                                                                          op);
}

}  // namespace cohort
