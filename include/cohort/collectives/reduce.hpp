// reduce, reduce_update_async and reduce_store_async on every group (docs/collectives.md),
// written once over the backend's fold primitives (detail/<backend>/reduce.hpp):
// fold_value, fold_update, reduce_store_atomic and reduce_store_pointer. Values
// fold in rank order; one member applies the total to the atomic or pointer.
#pragma once

#include <type_traits>

#include "cohort/backend.hpp"
#include "cohort/collectives/functional.hpp"
#include "cohort/detail/operator_checks.hpp"

#include COHORT_BACKEND_HEADER(reduce.hpp)

namespace cohort {

template <detail::impl::collective_group Group, class TyArg, class TyOp>
COHORT_DEVICE auto reduce(const Group& group, TyArg&& val, TyOp&& op, call_site where = call_site::current())
    -> decltype(op(val, val)) {
  using T = std::remove_cvref_t<TyArg>;
  static_assert(detail::combines<TyOp, T>, "reduce: the operator must return the type of the values");
  return detail::impl::fold_value<detail::impl::fold_kind::reduce>(group, static_cast<const T&>(val), op, where);
}

// The group's total is combined into `atomic` by one member: op(old, total).
template <detail::impl::collective_group Group, class TyAtomic, class TyArg, class TyOp>
  requires detail::impl::atomic_reference<std::remove_reference_t<TyAtomic>, std::remove_cvref_t<TyArg>>
COHORT_DEVICE void reduce_update_async(const Group& group, TyAtomic&& atomic, TyArg&& val, TyOp&& op,
                                       call_site where = call_site::current()) {
  using T = std::remove_cvref_t<TyArg>;
  static_assert(detail::combines<TyOp, T>, "reduce_update_async: the operator must return the type of the values");
  detail::impl::fold_update<detail::impl::fold_kind::reduce>(group, atomic, static_cast<const T&>(val), op, where);
}

// The group's total is stored into `atomic` by one member.
template <detail::impl::collective_group Group, class TyAtomic, class TyArg, class TyOp>
  requires detail::impl::atomic_reference<std::remove_reference_t<TyAtomic>, std::remove_cvref_t<TyArg>>
COHORT_DEVICE void reduce_store_async(const Group& group, TyAtomic&& atomic, TyArg&& val, TyOp&& op,
                                      call_site where = call_site::current()) {
  using T = std::remove_cvref_t<TyArg>;
  static_assert(detail::combines<TyOp, T>, "reduce_store_async: the operator must return the type of the values");
  detail::impl::reduce_store_atomic(group, atomic, static_cast<const T&>(val), op, where);
}

// The group's total is stored through `ptr` by one member (a plain store).
template <detail::impl::collective_group Group, class T, class TyArg, class TyOp>
  requires std::is_same_v<std::remove_cvref_t<TyArg>, T>
COHORT_DEVICE void reduce_store_async(const Group& group, T* ptr, TyArg&& val, TyOp&& op,
                                      call_site where = call_site::current()) {
  static_assert(detail::combines<TyOp, T>, "reduce_store_async: the operator must return the type of the values");
  detail::impl::reduce_store_pointer(group, ptr, static_cast<const T&>(val), op, where);
}

}  // namespace cohort
