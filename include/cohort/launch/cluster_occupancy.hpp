// Cluster occupancy: how many clusters of a launch configuration's shape can
// be resident at once (CUDA's cudaOccupancyMaxActiveClusters; on the host, the
// virtual device's co-resident blocks in whole clusters). A cooperative launch
// of clusters may have at most this many.
#pragma once

#include "cohort/detail/cluster_shape.hpp"
#include "cohort/launch/launch.hpp"
#include "cohort/launch/launch_config.hpp"

#if COHORT_BACKEND_CUDA
#include "cohort/detail/cuda/cluster_launch.hpp"
#endif

namespace cohort {

template <class... P>
int max_active_clusters(void (*kernel)(P...), const launch_config& cfg) {
#if COHORT_BACKEND_CUDA
  return detail::gpu::max_active_clusters(reinterpret_cast<const void*>(kernel), cfg);
#else
  detail::validate_cluster_shape(cfg.cluster, detail::max_portable_cluster_blocks);
  const long long blocks = static_cast<long long>(max_active_blocks_per_sm(kernel, static_cast<int>(detail::volume(cfg.block)),
                                                                           cfg.dynamic_shared_bytes)) *
                           detail::impl::properties_of(get_device()).multiprocessor_count;
  return static_cast<int>(blocks / static_cast<long long>(detail::volume(cfg.cluster)));
#endif
}

}  // namespace cohort
