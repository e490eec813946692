// Cluster occupancy on the host: the virtual device's co-resident blocks, in
// whole clusters.
#pragma once

#include <cstddef>

#include "cohort/detail/cluster_shape.hpp"
#include "cohort/detail/host/device_queries.hpp"
#include "cohort/detail/host/launch.hpp"
#include "cohort/detail/messages.hpp"
#include "cohort/launch/launch_config.hpp"

namespace cohort::detail::host {

inline int max_active_clusters(const void* kernel, const launch_config& cfg) {
  validate_cluster_shape(cfg.cluster, max_portable_cluster_blocks);
  const long long blocks = static_cast<long long>(active_blocks_per_sm(kernel, static_cast<int>(volume(cfg.block)),
                                                                       cfg.dynamic_shared_bytes)) *
                           properties_of(current_device()).multiprocessor_count;
  return static_cast<int>(blocks / static_cast<long long>(volume(cfg.cluster)));
}

}  // namespace cohort::detail::host
