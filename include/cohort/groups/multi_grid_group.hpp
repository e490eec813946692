// multi_grid_group: every thread of a multi-device cooperative launch
// (cohort::launch_cooperative_multi_device), one grid per device. NVIDIA
// removed it from CUDA 13; cohort keeps the seeds' API on both backends, over
// its own primitives (detail/cuda/multi_grid.hpp: a barrier on system-scope
// atomics in mapped pinned host memory; detail/host/multi_grid.hpp: the host
// runtime's barrier over every block of every grid). reduce() folds one value
// per thread across every grid, in grid order.
#pragma once

#include <cstring>
#include <type_traits>

#include "cohort/config.hpp"
#include "cohort/detail/call_site.hpp"
#include "cohort/groups.hpp"
#include "cohort/reduce.hpp"

#if COHORT_BACKEND_CUDA
#include "cohort/detail/cuda/multi_grid.hpp"
namespace cohort::detail {
namespace multi_grid_backend = gpu;
}
#else
#include "cohort/detail/host/multi_grid.hpp"
namespace cohort::detail {
namespace multi_grid_backend = host;
}
#endif

namespace cohort {

class multi_grid_group {
 public:
  // True in a multi-device cooperative launch, the only kind whose sync() is defined.
  COHORT_DEVICE bool is_valid() const { return detail::multi_grid_backend::multi_grid_valid(); }
  COHORT_DEVICE void sync(detail::call_site where = detail::call_site::current()) const {
    detail::multi_grid_backend::multi_grid_sync(where);
  }
  COHORT_DEVICE unsigned long long thread_rank() const {
    return detail::multi_grid_backend::multi_grid_thread_rank();
  }
  COHORT_DEVICE unsigned long long num_threads() const {
    return detail::multi_grid_backend::multi_grid_thread_count();
  }
  COHORT_DEVICE unsigned long long size() const { return num_threads(); }
  COHORT_DEVICE unsigned grid_rank() const { return detail::multi_grid_backend::multi_grid_rank(); }
  COHORT_DEVICE unsigned num_grids() const { return detail::multi_grid_backend::multi_grid_count(); }

 private:
  multi_grid_group() = default;
  friend COHORT_DEVICE multi_grid_group this_multi_grid();
};

COHORT_DEVICE inline multi_grid_group this_multi_grid() { return {}; }

// Every thread of every grid calls it; each gets op folded over all their
// values, grid by grid in grid-rank order, each grid's in thread-rank order.
// Each grid reduces on its device (a grid collective), its rank 0 publishes
// the grid's total in memory every device reaches, and after a multi-grid
// barrier every thread folds the totals; a second barrier keeps them in place
// until all have read them.
template <class T, class Op>
COHORT_DEVICE T reduce(const multi_grid_group& g, const T& value, Op op) {
  static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= 32,
                "reduce on a multi_grid_group takes trivially copyable types of at most 32 bytes");
  const grid_group grid = this_grid();
  const T grid_total = reduce(grid, value, op);
  if (grid.thread_rank() == 0)
    std::memcpy(detail::multi_grid_backend::multi_grid_slot(g.grid_rank()), &grid_total, sizeof(T));
  g.sync();
  T total;
  std::memcpy(&total, detail::multi_grid_backend::multi_grid_slot(0), sizeof(T));
  for (unsigned r = 1; r < g.num_grids(); ++r) {
    T next;
    std::memcpy(&next, detail::multi_grid_backend::multi_grid_slot(r), sizeof(T));
    total = op(total, next);
  }
  g.sync();
  return total;
}

}  // namespace cohort
