// multi_grid_group: every thread of a multi-device cooperative launch
// (cohort::launch_cooperative_multi_device), one grid per device. NVIDIA
// removed it from CUDA 13; cohort keeps the seeds' API on both backends, over
// its own primitives (detail/cuda/multi_grid.hpp: a barrier on system-scope
// atomics in memory every device reaches; detail/host/multi_grid.hpp: the host
// runtime's barrier over every block of every grid). A thread_group like the
// others; its collectives are collectives/multi_grid.hpp's.
#pragma once

#include "cohort/backend.hpp"
#include "cohort/groups/thread_group.hpp"
#include "cohort/memory/atomic_ref.hpp"

#include COHORT_BACKEND_HEADER(multi_grid.hpp)

namespace cohort {

class multi_grid_group : public thread_group {
 public:
  static constexpr cohort::thread_scope thread_scope = thread_scope_system;

  // True in a multi-device cooperative launch, the only kind whose sync() is defined.
  COHORT_DEVICE bool is_valid() const { return detail::impl::multi_grid_valid(); }
  COHORT_DEVICE void sync(call_site where = call_site::current()) const {
    detail::impl::multi_grid_sync(data_.grid, where);
  }
  COHORT_DEVICE unsigned long long thread_rank() const { return detail::impl::multi_grid_thread_rank(); }
  COHORT_DEVICE unsigned long long num_threads() const { return detail::impl::multi_grid_thread_count(); }
  COHORT_DEVICE unsigned long long size() const { return num_threads(); }
  COHORT_DEVICE unsigned grid_rank() const { return detail::impl::multi_grid_rank(); }
  COHORT_DEVICE unsigned num_grids() const { return detail::impl::multi_grid_count(); }

 private:
  // It holds its grid's barrier, as grid_group does: multi_grid.sync() passes it.
  COHORT_DEVICE multi_grid_group()
      : thread_group(detail::group_kind::multi_grid, group_data{detail::impl::this_grid_state()}) {}
  friend COHORT_DEVICE multi_grid_group this_multi_grid();
};

COHORT_DEVICE inline multi_grid_group this_multi_grid() { return {}; }

}  // namespace cohort
