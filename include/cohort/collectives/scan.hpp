// inclusive_scan, exclusive_scan, inclusive_scan_update and exclusive_scan_update
// on every group (docs/collectives.md), written once over the backend's fold
// primitives (detail/<backend>/reduce.hpp). Values fold in rank order; an
// exclusive scan gives rank 0 the operator's identity, or T{} for an operator
// cohort does not know. The *_update forms start the scan from the atomic's
// old value and leave op(old, total) in it, as pseudo-code has it.
#pragma once

#include <type_traits>

#include "cohort/backend.hpp"
#include "cohort/collectives/functional.hpp"
#include "cohort/detail/operator_checks.hpp"

#include COHORT_BACKEND_HEADER(reduce.hpp)

namespace cohort {

namespace detail {

template <impl::fold_kind Kind, class Group, class T, class Op>
COHORT_DEVICE T scan(const Group& group, const T& v, Op& op, call_site where) {
  static_assert(combines<Op, T>, "inclusive_scan/exclusive_scan: the operator must return the type of the values");
  return impl::fold_value<Kind>(group, v, op, where);
}

template <impl::fold_kind Kind, class Group, class A, class T, class Op>
COHORT_DEVICE T scan_update(const Group& group, A& atomic, const T& v, Op& op, call_site where) {
  static_assert(combines<Op, T>, "*_scan_update: the operator must return the type of the values");
  return impl::fold_update<Kind>(group, atomic, v, op, where);
}

}  // namespace detail

template <detail::impl::collective_group Group, class TyVal, class TyFn>
COHORT_DEVICE auto inclusive_scan(const Group& group, TyVal&& val, TyFn&& op, call_site where = call_site::current())
    -> decltype(op(val, val)) {
  using T = std::remove_cvref_t<TyVal>;
  return detail::scan<detail::impl::fold_kind::inclusive_scan>(group, static_cast<const T&>(val), op, where);
}

template <detail::impl::collective_group Group, class TyVal>
COHORT_DEVICE std::remove_cvref_t<TyVal> inclusive_scan(const Group& group, TyVal&& val,
                                                        call_site where = call_site::current()) {
  using T = std::remove_cvref_t<TyVal>;
  plus<T> op;
  return detail::scan<detail::impl::fold_kind::inclusive_scan>(group, static_cast<const T&>(val), op, where);
}

template <detail::impl::collective_group Group, class TyVal, class TyFn>
COHORT_DEVICE auto exclusive_scan(const Group& group, TyVal&& val, TyFn&& op, call_site where = call_site::current())
    -> decltype(op(val, val)) {
  using T = std::remove_cvref_t<TyVal>;
  return detail::scan<detail::impl::fold_kind::exclusive_scan>(group, static_cast<const T&>(val), op, where);
}

template <detail::impl::collective_group Group, class TyVal>
COHORT_DEVICE std::remove_cvref_t<TyVal> exclusive_scan(const Group& group, TyVal&& val,
                                                        call_site where = call_site::current()) {
  using T = std::remove_cvref_t<TyVal>;
  plus<T> op;
  return detail::scan<detail::impl::fold_kind::exclusive_scan>(group, static_cast<const T&>(val), op, where);
}

template <detail::impl::collective_group Group, class TyAtomic, class TyVal, class TyFn>
  requires detail::impl::atomic_reference<std::remove_reference_t<TyAtomic>, std::remove_cvref_t<TyVal>>
COHORT_DEVICE auto inclusive_scan_update(const Group& group, TyAtomic&& atomic, TyVal&& val, TyFn&& op,
                                         call_site where = call_site::current()) -> decltype(op(val, val)) {
  using T = std::remove_cvref_t<TyVal>;
  return detail::scan_update<detail::impl::fold_kind::inclusive_scan>(group, atomic, static_cast<const T&>(val), op,
                                                                      where);
}

template <detail::impl::collective_group Group, class TyAtomic, class TyVal>
  requires detail::impl::atomic_reference<std::remove_reference_t<TyAtomic>, std::remove_cvref_t<TyVal>>
COHORT_DEVICE std::remove_cvref_t<TyVal> inclusive_scan_update(const Group& group, TyAtomic&& atomic, TyVal&& val,
                                                               call_site where = call_site::current()) {
  using T = std::remove_cvref_t<TyVal>;
  plus<T> op;
  return detail::scan_update<detail::impl::fold_kind::inclusive_scan>(group, atomic, static_cast<const T&>(val), op,
                                                                      where);
}

template <detail::impl::collective_group Group, class TyAtomic, class TyVal, class TyFn>
  requires detail::impl::atomic_reference<std::remove_reference_t<TyAtomic>, std::remove_cvref_t<TyVal>>
COHORT_DEVICE auto exclusive_scan_update(const Group& group, TyAtomic&& atomic, TyVal&& val, TyFn&& op,
                                         call_site where = call_site::current()) -> decltype(op(val, val)) {
  using T = std::remove_cvref_t<TyVal>;
  return detail::scan_update<detail::impl::fold_kind::exclusive_scan>(group, atomic, static_cast<const T&>(val), op,
                                                                      where);
}

template <detail::impl::collective_group Group, class TyAtomic, class TyVal>
  requires detail::impl::atomic_reference<std::remove_reference_t<TyAtomic>, std::remove_cvref_t<TyVal>>
COHORT_DEVICE std::remove_cvref_t<TyVal> exclusive_scan_update(const Group& group, TyAtomic&& atomic, TyVal&& val,
                                                               call_site where = call_site::current()) {
  using T = std::remove_cvref_t<TyVal>;
  plus<T> op;
  return detail::scan_update<detail::impl::fold_kind::exclusive_scan>(group, atomic, static_cast<const T&>(val), op,
                                                                      where);
}

}  // namespace cohort
