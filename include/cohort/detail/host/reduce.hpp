// reduce, reduce_update_async and reduce_store_async on the host backend, on
// tiles of every size, coalesced groups, thread blocks and (in a cooperative
// launch) the grid. The values fold in rank order (docs/collectives.md); the
// operator and the atomic or pointer used are rank 0's, and every member must
// pass the same atomic or pointer.
#pragma once

#include <source_location>
#include <type_traits>
#include <utility>

#include "cohort/collectives/functional.hpp"
#include "cohort/detail/host/fold.hpp"
#include "cohort/detail/host/groups.hpp"

namespace cohort {

namespace detail::host {
// NVIDIA's rule: the operator returns the type of the values it combines.
template <class Op, class T>
inline constexpr bool combines = std::is_same_v<std::remove_cvref_t<std::invoke_result_t<Op&, T, T>>, T>;
}  // namespace detail::host

template <detail::host::collective_group Group, class TyArg, class TyOp>
auto reduce(const Group& group, TyArg&& val, TyOp&& op, std::source_location where = std::source_location::current())
    -> decltype(op(val, val)) {
  using T = std::remove_cvref_t<TyArg>;
  static_assert(detail::host::combines<TyOp, T>, "reduce: the operator must return the type of the values");
  const T v = val;
  return detail::host::fold<detail::host::fold_kind::reduce>(group, &v, op, detail::host::no_target{}, where);
}

// The group's total is combined into `atomic` by one member: op(old, total).
template <detail::host::collective_group Group, class TyAtomic, class TyArg, class TyOp>
requires detail::host::atomic_reference<std::remove_reference_t<TyAtomic>, std::remove_cvref_t<TyArg>>
void reduce_update_async(const Group& group, TyAtomic&& atomic, TyArg&& val, TyOp&& op,
                         std::source_location where = std::source_location::current()) {
  using T = std::remove_cvref_t<TyArg>;
  static_assert(detail::host::combines<TyOp, T>,
                "reduce_update_async: the operator must return the type of the values");
  const T v = val;
  detail::host::fold<detail::host::fold_kind::reduce>(
      group, &v, op, detail::host::atomic_update_target<std::remove_reference_t<TyAtomic>>{&atomic}, where);
}

// The group's total is stored into `atomic` by one member.
template <detail::host::collective_group Group, class TyAtomic, class TyArg, class TyOp>
requires detail::host::atomic_reference<std::remove_reference_t<TyAtomic>, std::remove_cvref_t<TyArg>>
void reduce_store_async(const Group& group, TyAtomic&& atomic, TyArg&& val, TyOp&& op,
                        std::source_location where = std::source_location::current()) {
  using T = std::remove_cvref_t<TyArg>;
  static_assert(detail::host::combines<TyOp, T>, "reduce_store_async: the operator must return the type of the values");
  const T v = val;
  detail::host::fold<detail::host::fold_kind::reduce>(
      group, &v, op, detail::host::atomic_store_target<std::remove_reference_t<TyAtomic>>{&atomic}, where);
}

// The group's total is stored through `ptr` by one member (a plain store).
template <detail::host::collective_group Group, class T, class TyArg, class TyOp>
requires std::is_same_v<std::remove_cvref_t<TyArg>, T>
void reduce_store_async(const Group& group, T* ptr, TyArg&& val, TyOp&& op,
                        std::source_location where = std::source_location::current()) {
  static_assert(detail::host::combines<TyOp, T>, "reduce_store_async: the operator must return the type of the values");
  const T v = val;
  detail::host::fold<detail::host::fold_kind::reduce>(group, &v, op, detail::host::pointer_store_target<T>{ptr}, where);
}

}  // namespace cohort
