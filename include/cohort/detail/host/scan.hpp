// inclusive_scan, exclusive_scan, inclusive_scan_update and
// exclusive_scan_update on the host backend, on tiles of every size,
// coalesced groups, thread blocks and (in a cooperative launch) the grid.
// Values fold in rank order; an exclusive scan gives rank 0 the operator's
// identity, or T{} for an operator cohort does not know (docs/collectives.md).
// The *_update forms start the scan from the atomic's old value and leave
// op(old, total) in it, as pseudo-code has it.
#pragma once

#include <source_location>
#include <type_traits>
#include <utility>

#include "cohort/detail/host/reduce.hpp"

namespace cohort {

namespace detail::host {

template <fold_kind Kind, class Group, class TyVal, class TyFn>
std::remove_cvref_t<TyVal> scan(const Group& group, TyVal&& val, TyFn&& op, std::source_location where) {
  using T = std::remove_cvref_t<TyVal>;
  static_assert(combines<TyFn, T>, "inclusive_scan/exclusive_scan: the operator must return the type of the values");
  const T v = val;
  return fold<Kind>(group, &v, op, no_target{}, where);
}

template <fold_kind Kind, class Group, class TyAtomic, class TyVal, class TyFn>
std::remove_cvref_t<TyVal> scan_update(const Group& group, TyAtomic& atomic, TyVal&& val, TyFn&& op,
                                       std::source_location where) {
  using T = std::remove_cvref_t<TyVal>;
  static_assert(combines<TyFn, T>, "*_scan_update: the operator must return the type of the values");
  const T v = val;
  return fold<Kind>(group, &v, op, atomic_update_target<TyAtomic>{&atomic}, where);
}

}  // namespace detail::host

template <detail::host::collective_group Group, class TyVal, class TyFn>
auto inclusive_scan(const Group& group, TyVal&& val, TyFn&& op,
                    std::source_location where = std::source_location::current()) -> decltype(op(val, val)) {
  return detail::host::scan<detail::host::fold_kind::inclusive_scan>(group, std::forward<TyVal>(val), op, where);
}

template <detail::host::collective_group Group, class TyVal>
std::remove_cvref_t<TyVal> inclusive_scan(const Group& group, TyVal&& val,
                                          std::source_location where = std::source_location::current()) {
  return detail::host::scan<detail::host::fold_kind::inclusive_scan>(group, std::forward<TyVal>(val),
                                                                     plus<std::remove_cvref_t<TyVal>>(), where);
}

template <detail::host::collective_group Group, class TyVal, class TyFn>
auto exclusive_scan(const Group& group, TyVal&& val, TyFn&& op,
                    std::source_location where = std::source_location::current()) -> decltype(op(val, val)) {
  return detail::host::scan<detail::host::fold_kind::exclusive_scan>(group, std::forward<TyVal>(val), op, where);
}

template <detail::host::collective_group Group, class TyVal>
std::remove_cvref_t<TyVal> exclusive_scan(const Group& group, TyVal&& val,
                                          std::source_location where = std::source_location::current()) {
  return detail::host::scan<detail::host::fold_kind::exclusive_scan>(group, std::forward<TyVal>(val),
                                                                     plus<std::remove_cvref_t<TyVal>>(), where);
}

template <detail::host::collective_group Group, class TyAtomic, class TyVal, class TyFn>
requires detail::host::atomic_reference<std::remove_reference_t<TyAtomic>, std::remove_cvref_t<TyVal>>
auto inclusive_scan_update(const Group& group, TyAtomic&& atomic, TyVal&& val, TyFn&& op,
                           std::source_location where = std::source_location::current()) -> decltype(op(val, val)) {
  return detail::host::scan_update<detail::host::fold_kind::inclusive_scan>(group, atomic, std::forward<TyVal>(val), op,
                                                                            where);
}

template <detail::host::collective_group Group, class TyAtomic, class TyVal>
requires detail::host::atomic_reference<std::remove_reference_t<TyAtomic>, std::remove_cvref_t<TyVal>>
    std::remove_cvref_t<TyVal> inclusive_scan_update(const Group& group, TyAtomic&& atomic, TyVal&& val,
                                                     std::source_location where = std::source_location::current()) {
  return detail::host::scan_update<detail::host::fold_kind::inclusive_scan>(group, atomic, std::forward<TyVal>(val),
                                                                            plus<std::remove_cvref_t<TyVal>>(), where);
}

template <detail::host::collective_group Group, class TyAtomic, class TyVal, class TyFn>
requires detail::host::atomic_reference<std::remove_reference_t<TyAtomic>, std::remove_cvref_t<TyVal>>
auto exclusive_scan_update(const Group& group, TyAtomic&& atomic, TyVal&& val, TyFn&& op,
                           std::source_location where = std::source_location::current()) -> decltype(op(val, val)) {
  return detail::host::scan_update<detail::host::fold_kind::exclusive_scan>(group, atomic, std::forward<TyVal>(val), op,
                                                                            where);
}

template <detail::host::collective_group Group, class TyAtomic, class TyVal>
requires detail::host::atomic_reference<std::remove_reference_t<TyAtomic>, std::remove_cvref_t<TyVal>>
    std::remove_cvref_t<TyVal> exclusive_scan_update(const Group& group, TyAtomic&& atomic, TyVal&& val,
                                                     std::source_location where = std::source_location::current()) {
  return detail::host::scan_update<detail::host::fold_kind::exclusive_scan>(group, atomic, std::forward<TyVal>(val),
                                                                            plus<std::remove_cvref_t<TyVal>>(), where);
}

}  // namespace cohort
