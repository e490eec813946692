// Cluster occupancy: how many clusters of a launch configuration's shape can
// be resident at once (CUDA's cudaOccupancyMaxActiveClusters; on the host, the
// virtual device's co-resident blocks in whole clusters). A cooperative launch
// of clusters may have at most this many.
#pragma once

#include "cohort/backend.hpp"
#include "cohort/detail/kernel_arguments.hpp"
#include "cohort/launch/launch.hpp"
#include "cohort/launch/launch_config.hpp"

#include COHORT_BACKEND_HEADER(cluster_launch.hpp)

namespace cohort {

template <class... P>
int max_active_clusters(void (*kernel)(P...), const launch_config& cfg) {
  return detail::impl::max_active_clusters(detail::kernel_address(kernel), cfg);
}

}  // namespace cohort
