// multi_grid_group: every thread of a multi-device cooperative launch
// (cohort::launch_cooperative_multi_device), one grid per device. NVIDIA
// removed it from CUDA 13; cohort keeps the seeds' API on both backends, over
// its own primitives (detail/cuda/multi_grid.hpp: a barrier on system-scope
// atomics in mapped pinned host memory; detail/host/multi_grid.hpp: the host
// runtime's barrier over every block of every grid). reduce() folds one value
// per thread across every grid, in grid order; so do the scans, and
// invoke_one runs its function once in the whole launch.
#pragma once

#include <cstring>
#include <type_traits>

#include "cohort/backend.hpp"
#include "cohort/groups/groups.hpp"
#include "cohort/collectives/functional.hpp"
#include "cohort/collectives/invoke.hpp"
#include "cohort/collectives/reduce.hpp"
#include "cohort/collectives/scan.hpp"

#include COHORT_BACKEND_HEADER(multi_grid.hpp)

namespace cohort {

class multi_grid_group {
 public:
  // True in a multi-device cooperative launch, the only kind whose sync() is defined.
  COHORT_DEVICE bool is_valid() const { return detail::impl::multi_grid_valid(); }
  COHORT_DEVICE void sync(call_site where = call_site::current()) const {
    detail::impl::multi_grid_sync(where);
  }
  COHORT_DEVICE unsigned long long thread_rank() const {
    return detail::impl::multi_grid_thread_rank();
  }
  COHORT_DEVICE unsigned long long num_threads() const {
    return detail::impl::multi_grid_thread_count();
  }
  COHORT_DEVICE unsigned long long size() const { return num_threads(); }
  COHORT_DEVICE unsigned grid_rank() const { return detail::impl::multi_grid_rank(); }
  COHORT_DEVICE unsigned num_grids() const { return detail::impl::multi_grid_count(); }

 private:
  multi_grid_group() = default;
  friend COHORT_DEVICE multi_grid_group this_multi_grid();
};

COHORT_DEVICE inline multi_grid_group this_multi_grid() { return {}; }

namespace detail {

// Each grid's rank 0 publishes the grid's value in memory every device
// reaches; after a multi-grid barrier every thread folds the values of grids
// [0, upto) in grid order (none: nothing). A second barrier keeps them in
// place until all have read them.
template <class T, class Op>
COHORT_DEVICE bool fold_grid_values(const multi_grid_group& g, const T& mine, unsigned upto, Op& op, T& folded) {
  static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= 32,
                "multi_grid_group collectives take trivially copyable types of at most 32 bytes");
  if (this_grid().thread_rank() == 0) std::memcpy(impl::multi_grid_slot(g.grid_rank()), &mine, sizeof(T));
  g.sync();
  for (unsigned r = 0; r < upto; ++r) {
    T next;
    std::memcpy(&next, impl::multi_grid_slot(r), sizeof(T));
    folded = r == 0 ? next : op(folded, next);
  }
  g.sync();
  return upto > 0;
}

}  // namespace detail

// Every thread of every grid calls these. reduce: op folded over every
// thread's value, grid by grid in grid-rank order, each grid's in thread-rank
// order (each grid reduces on its device, a grid collective, then the grids'
// totals are folded). The scans: the prefix over the grids before the
// caller's joined to the grid collective's prefix.
template <class T, class Op>
COHORT_DEVICE T reduce(const multi_grid_group& g, const T& value, Op op) {
  const T grid_total = reduce(this_grid(), value, op);
  T total = grid_total;
  detail::fold_grid_values(g, grid_total, g.num_grids(), op, total);
  return total;
}

template <class T, class Op>
COHORT_DEVICE T inclusive_scan(const multi_grid_group& g, const T& value, Op op) {
  const grid_group grid = this_grid();
  const T in_grid = inclusive_scan(grid, value, op);
  T before = in_grid;
  const bool has = detail::fold_grid_values(g, reduce(grid, value, op), g.grid_rank(), op, before);
  return has ? op(before, in_grid) : in_grid;
}
template <class T>
COHORT_DEVICE T inclusive_scan(const multi_grid_group& g, const T& value) {
  return inclusive_scan(g, value, plus<T>());
}

template <class T, class Op>
COHORT_DEVICE T exclusive_scan(const multi_grid_group& g, const T& value, Op op) {
  const grid_group grid = this_grid();
  const T in_grid = exclusive_scan(grid, value, op);  // the grid's rank 0: the operator's identity
  T before = in_grid;
  const bool has = detail::fold_grid_values(g, reduce(grid, value, op), g.grid_rank(), op, before);
  if (!has) return in_grid;
  return grid.thread_rank() == 0 ? before : op(before, in_grid);
}
template <class T>
COHORT_DEVICE T exclusive_scan(const multi_grid_group& g, const T& value) {
  return exclusive_scan(g, value, plus<T>());
}

// fn(args...) runs once in the whole launch (the multi-grid's rank 0), after
// every thread has arrived and before any leaves.
template <class Fn, class... Args>
COHORT_DEVICE void invoke_one(const multi_grid_group& g, Fn&& fn, Args&&... args) {
  g.sync();
  if (g.thread_rank() == 0) static_cast<Fn&&>(fn)(static_cast<Args&&>(args)...);
  g.sync();
}

}  // namespace cohort
