// Cluster launches on the CUDA runtime: the cluster-dimension launch
// attribute, the occupancy calculator's count of co-resident clusters, and the
// checks made before a cluster launch (sm_90, the shape, and for a
// cooperative grid of clusters, that every cluster fits at once).
#pragma once

#include <cuda_runtime.h>

#include <sstream>

#include "cohort/detail/cluster_shape.hpp"
#include "cohort/detail/cuda/runtime/runtime_check.hpp"
#include "cohort/errors.hpp"
#include "cohort/launch/device.hpp"
#include "cohort/launch/launch_config.hpp"

namespace cohort::detail::gpu {

inline cudaLaunchAttribute cluster_attribute(const dim3& cluster) {
  cudaLaunchAttribute a{};
  a.id = cudaLaunchAttributeClusterDimension;
  a.val.clusterDim.x = cluster.x;
  a.val.clusterDim.y = cluster.y;
  a.val.clusterDim.z = cluster.z;
  return a;
}

inline int max_active_clusters(const void* kernel, const launch_config& cfg) {
  validate_cluster_shape(cfg.cluster, max_portable_cluster_blocks);
  cudaLaunchAttribute a = cluster_attribute(cfg.cluster);
  cudaLaunchConfig_t config{};
  // The calculator wants a grid of whole clusters; its answer does not depend on the grid's size.
  config.gridDim = cfg.cluster;
  config.blockDim = cfg.block;
  config.dynamicSmemBytes = cfg.dynamic_shared_bytes;
  config.attrs = &a;
  config.numAttrs = 1;
  int clusters = 0;
  check(cudaOccupancyMaxActiveClusters(&clusters, kernel, &config), "max_active_clusters");
  return clusters;
}

inline void check_cluster_launch(const void* kernel, const launch_config& cfg, int device, const device_properties& p,
                                 bool cooperative) {
  if (p.compute_capability_major < 9) {
    std::ostringstream s;
    s << "a launch with clusters " << to_string(cfg.cluster) << " needs compute capability 9.0 or newer; device "
      << device << " is " << p.compute_capability_major << "." << p.compute_capability_minor
      << "; launch without clusters (cluster 1x1x1)";
    throw error(errc::invalid_configuration, s.str());
  }
  validate_cluster_launch(cfg, max_portable_cluster_blocks);
  const int resident = max_active_clusters(kernel, cfg);
  if (resident == 0) check_cluster_fits(cfg, 0);
  const unsigned long long clusters = volume(grid_in_clusters(cfg));
  if (cooperative && clusters > static_cast<unsigned long long>(resident)) {
    std::ostringstream s;
    s << "cooperative launch of " << clusters << " clusters " << to_string(cfg.cluster) << " exceeds the " << resident
      << " clusters that can be co-resident for this kernel at " << volume(cfg.block)
      << " threads per block; use cohort::max_active_clusters(kernel, cfg) to size the grid";
    throw error(errc::cooperative_too_large, s.str());
  }
}

}  // namespace cohort::detail::gpu
