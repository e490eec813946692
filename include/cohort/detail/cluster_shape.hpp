// Checks a launch's cluster shape before anything runs (both backends word
// the failures alike): no zero dimension, a grid made of whole clusters, and
// no more blocks per cluster than the device co-schedules.
#pragma once

#include <sstream>
#include <string>

#include "cohort/detail/messages.hpp"
#include "cohort/errors.hpp"
#include "cohort/launch/launch_config.hpp"

namespace cohort::detail {

// The portable limit of CUDA's clusters; sm_90 allows 16 only to kernels that opt in.
inline constexpr unsigned max_portable_cluster_blocks = 8;

inline bool is_cluster_launch(const launch_config& cfg) { return volume(cfg.cluster) != 1; }

inline dim3 grid_in_clusters(const launch_config& cfg) {
  return dim3(cfg.grid.x / cfg.cluster.x, cfg.grid.y / cfg.cluster.y, cfg.grid.z / cfg.cluster.z);
}

// The cluster alone: no zero dimension, at most `max_blocks` blocks.
inline void validate_cluster_shape(const dim3& c, unsigned max_blocks) {
  if (c.x == 0 || c.y == 0 || c.z == 0)
    throw error(errc::invalid_configuration,
                "cluster dimensions " + to_string(c) + " contain a zero; every dimension must be at least 1");
  if (volume(c) > max_blocks) {
    std::ostringstream s;
    s << "cluster " << to_string(c) << " has " << volume(c) << " blocks, more than the " << max_blocks
      << " blocks a cluster may have on this device; use a smaller cluster";
    throw error(errc::invalid_configuration, s.str());
  }
}

// The launch: a valid cluster, and a grid of whole clusters.
inline void validate_cluster_launch(const launch_config& cfg, unsigned max_blocks) {
  validate_cluster_shape(cfg.cluster, max_blocks);
  const dim3 c = cfg.cluster, g = cfg.grid;
  const unsigned cdim[3] = {c.x, c.y, c.z}, gdim[3] = {g.x, g.y, g.z};
  const char* axis[3] = {"x", "y", "z"};
  for (int i = 0; i < 3; ++i)
    if (gdim[i] % cdim[i] != 0) {
      std::ostringstream s;
      s << "grid " << to_string(g) << " is not a whole number of clusters " << to_string(c) << ": grid dimension "
        << axis[i] << " = " << gdim[i] << " is not a multiple of cluster dimension " << axis[i] << " = " << cdim[i]
        << "; make every grid dimension a multiple of the cluster's";
      throw error(errc::invalid_configuration, s.str());
    }
}

// A cluster's blocks run at once, so the device must hold that many of them.
inline void check_cluster_fits(const launch_config& cfg, long long resident_blocks) {
  if (static_cast<long long>(volume(cfg.cluster)) <= resident_blocks) return;
  std::ostringstream s;
  s << "cluster " << to_string(cfg.cluster) << " of " << volume(cfg.cluster) << " blocks cannot be co-resident: the "
    << "device holds at most " << resident_blocks << " blocks of " << volume(cfg.block)
    << " threads at once; use fewer or smaller blocks per cluster";
  throw error(errc::invalid_configuration, s.str());
}

}  // namespace cohort::detail
