// reduce, the scans, their *_update and *_store forms, invoke_one and
// invoke_one_broadcast on a multi_grid_group (NVIDIA's had none), written
// once over the grid collectives and the backend's multi-grid slots
// (detail/<backend>/multi_grid.hpp): each grid folds its own values (a grid
// collective), the grid's rank 0 publishes the grid's total in the grid's
// slot, and after a multi-grid barrier every thread folds the slots in grid
// order; a second barrier keeps them in place until all have read them. So
// values fold grid by grid in grid-rank order, each grid's in thread-rank
// order. The atomic or pointer of the *_update and *_store forms is the
// multi-grid's rank 0's, and it applies the total.
#pragma once

#include <cstring>
#include <type_traits>
#include <utility>

#include "cohort/backend.hpp"
#include "cohort/collectives/functional.hpp"
#include "cohort/collectives/invoke.hpp"
#include "cohort/collectives/reduce.hpp"
#include "cohort/collectives/scan.hpp"
#include "cohort/detail/operator_checks.hpp"
#include "cohort/groups/grid_group.hpp"
#include "cohort/groups/multi_grid_group.hpp"
#include "cohort/memory/atomic_ref.hpp"

#include COHORT_BACKEND_HEADER(atomic_update.hpp)
#include COHORT_BACKEND_HEADER(multi_grid.hpp)

namespace cohort {

namespace detail {

template <class T>
COHORT_DEVICE void check_grid_slot_value() {
  static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= 32,
                "multi_grid_group collectives take trivially copyable types of at most 32 bytes");
}

// What the grids' values fold to: all of them, and those before the caller's grid.
template <class T>
struct grid_values {
  T total;
  T before;
  bool has_before;
};

// Every grid's `mine` (its rank 0's), folded in grid order by every thread.
template <class T, class Op>
COHORT_DEVICE grid_values<T> fold_grid_values(const multi_grid_group& g, const T& mine, Op& op, call_site where) {
  check_grid_slot_value<T>();
  const unsigned me = g.grid_rank(), grids = g.num_grids();
  if (grid_group::thread_rank() == 0) std::memcpy(impl::multi_grid_slot(me), &mine, sizeof(T));
  g.sync(where);
  grid_values<T> v{mine, mine, false};
  for (unsigned r = 0; r < grids; ++r) {
    T next;
    std::memcpy(&next, impl::multi_grid_slot(r), sizeof(T));
    if (r == me) {
      v.before = v.total;
      v.has_before = r > 0;
    }
    v.total = r == 0 ? next : op(v.total, next);
  }
  g.sync(where);
  return v;
}

// The multi-grid's rank 0's `value`, handed to every thread.
template <class T>
COHORT_DEVICE T from_first_thread(const multi_grid_group& g, const T& value, call_site where) {
  check_grid_slot_value<T>();
  if (g.thread_rank() == 0) std::memcpy(impl::multi_grid_slot(0), &value, sizeof(T));
  g.sync(where);
  T out;
  std::memcpy(&out, impl::multi_grid_slot(0), sizeof(T));
  g.sync(where);
  return out;
}

// A scan across the grids: the grid's own scan joined to what the grids
// before it fold to. `start(total)` runs on the multi-grid's rank 0 and
// returns what precedes everything (an *_update's old value), or nothing.
template <bool Inclusive, class T, class Op, class Start>
COHORT_DEVICE T multi_grid_scan(const multi_grid_group& g, const T& value, Op& op, Start start, call_site where) {
  static_assert(combines<Op, T>, "inclusive_scan/exclusive_scan: the operator must return the type of the values");
  const grid_group grid = this_grid();
  T in_grid;
  if constexpr (Inclusive)
    in_grid = inclusive_scan(grid, value, op, where);
  else
    in_grid = exclusive_scan(grid, value, op, where);
  grid_values<T> grids = fold_grid_values(g, reduce(grid, value, op, where), op, where);
  if constexpr (!std::is_same_v<Start, std::nullptr_t>) {
    const T old = from_first_thread(g, g.thread_rank() == 0 ? start(grids.total) : grids.total, where);
    grids.before = grids.has_before ? op(old, grids.before) : old;
    grids.has_before = true;
  }
  if (!grids.has_before) return in_grid;
  // A grid's rank 0 has no prefix of its own in an exclusive scan (its in_grid is the identity).
  return !Inclusive && grid.thread_rank() == 0 ? grids.before : op(grids.before, in_grid);
}

template <class A, class T, class Op>
COHORT_DEVICE auto updating(A& atomic, Op& op) {
  return [&atomic, &op](const T& total) { return impl::atomic_apply(atomic, total, op); };
}

}  // namespace detail

template <class T, class Op>
COHORT_DEVICE T reduce(const multi_grid_group& g, const T& value, Op op, call_site where = call_site::current()) {
  static_assert(detail::combines<Op, T>, "reduce: the operator must return the type of the values");
  return detail::fold_grid_values(g, reduce(this_grid(), value, op, where), op, where).total;
}

// The total is combined into `atomic` by the multi-grid's rank 0: op(old, total).
template <class A, class T, class Op>
  requires detail::impl::atomic_reference<std::remove_reference_t<A>, T>
COHORT_DEVICE void reduce_update_async(const multi_grid_group& g, A&& atomic, const T& value, Op op,
                                       call_site where = call_site::current()) {
  const T total = reduce(g, value, op, where);
  if (g.thread_rank() == 0) detail::impl::atomic_apply(atomic, total, op);
}

template <class A, class T, class Op>
  requires detail::impl::atomic_reference<std::remove_reference_t<A>, T>
COHORT_DEVICE void reduce_store_async(const multi_grid_group& g, A&& atomic, const T& value, Op op,
                                      call_site where = call_site::current()) {
  const T total = reduce(g, value, op, where);
  if (g.thread_rank() == 0) atomic.store(total, memory_order_relaxed);
}

template <class T, class Op>
COHORT_DEVICE void reduce_store_async(const multi_grid_group& g, T* ptr, const T& value, Op op,
                                      call_site where = call_site::current()) {
  const T total = reduce(g, value, op, where);
  if (g.thread_rank() == 0) *ptr = total;
}

template <class T, class Op>
COHORT_DEVICE T inclusive_scan(const multi_grid_group& g, const T& value, Op op,
                               call_site where = call_site::current()) {
  return detail::multi_grid_scan<true>(g, value, op, nullptr, where);
}
template <class T>
COHORT_DEVICE T inclusive_scan(const multi_grid_group& g, const T& value, call_site where = call_site::current()) {
  return inclusive_scan(g, value, plus<T>(), where);
}

template <class T, class Op>
COHORT_DEVICE T exclusive_scan(const multi_grid_group& g, const T& value, Op op,
                               call_site where = call_site::current()) {
  return detail::multi_grid_scan<false>(g, value, op, nullptr, where);
}
template <class T>
COHORT_DEVICE T exclusive_scan(const multi_grid_group& g, const T& value, call_site where = call_site::current()) {
  return exclusive_scan(g, value, plus<T>(), where);
}

// The scans start from the atomic's old value, which becomes op(old, total).
template <class A, class T, class Op>
  requires detail::impl::atomic_reference<std::remove_reference_t<A>, T>
COHORT_DEVICE T inclusive_scan_update(const multi_grid_group& g, A&& atomic, const T& value, Op op,
                                      call_site where = call_site::current()) {
  return detail::multi_grid_scan<true>(g, value, op, detail::updating<std::remove_reference_t<A>, T>(atomic, op),
                                       where);
}
template <class A, class T>
  requires detail::impl::atomic_reference<std::remove_reference_t<A>, T>
COHORT_DEVICE T inclusive_scan_update(const multi_grid_group& g, A&& atomic, const T& value,
                                      call_site where = call_site::current()) {
  return inclusive_scan_update(g, atomic, value, plus<T>(), where);
}

template <class A, class T, class Op>
  requires detail::impl::atomic_reference<std::remove_reference_t<A>, T>
COHORT_DEVICE T exclusive_scan_update(const multi_grid_group& g, A&& atomic, const T& value, Op op,
                                      call_site where = call_site::current()) {
  return detail::multi_grid_scan<false>(g, value, op, detail::updating<std::remove_reference_t<A>, T>(atomic, op),
                                        where);
}
template <class A, class T>
  requires detail::impl::atomic_reference<std::remove_reference_t<A>, T>
COHORT_DEVICE T exclusive_scan_update(const multi_grid_group& g, A&& atomic, const T& value,
                                      call_site where = call_site::current()) {
  return exclusive_scan_update(g, atomic, value, plus<T>(), where);
}

// fn(args...) runs once in the whole launch (the multi-grid's rank 0), after
// every thread has arrived and before any leaves; the broadcast form hands
// its result to every thread.
template <class Fn, class... Args>
COHORT_DEVICE void invoke_one(const multi_grid_group& g, Fn&& fn, Args&&... args) {
  g.sync();
  if (g.thread_rank() == 0) std::forward<Fn>(fn)(std::forward<Args>(args)...);
  g.sync();
}

template <class Fn, class... Args>
COHORT_DEVICE auto invoke_one_broadcast(const multi_grid_group& g, Fn&& fn, Args&&... args)
    -> std::remove_cvref_t<std::invoke_result_t<Fn, Args...>> {
  using R = std::remove_cvref_t<std::invoke_result_t<Fn, Args...>>;
  static_assert(!std::is_void_v<R>, "invoke_one_broadcast: the function must return a value (use invoke_one)");
  g.sync();
  R result{};
  if (g.thread_rank() == 0) result = std::forward<Fn>(fn)(std::forward<Args>(args)...);
  return detail::from_first_thread(g, result, call_site::current());
}

}  // namespace cohort
