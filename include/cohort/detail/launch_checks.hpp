// The checks every launch passes before the backend's raw launch: the
// configuration against the current device (validate.hpp), and a cooperative
// grid against the blocks that can be resident at once, so that the message
// is cohort's on both backends and a launch being captured into a CUDA graph
// fails now rather than at instantiation.
#pragma once

#include "cohort/backend.hpp"
#include "cohort/detail/cluster_shape.hpp"
#include "cohort/detail/messages.hpp"
#include "cohort/detail/remedy_api.hpp"
#include "cohort/detail/validate.hpp"
#include "cohort/errors.hpp"
#include "cohort/launch/device_queries.hpp"
#include "cohort/launch/launch_config.hpp"

#include COHORT_BACKEND_HEADER(launch.hpp)

namespace cohort::detail {

inline void check_cooperative_fits(const void* kernel, const launch_config& cfg, int device, const device_properties& p,
                                   const remedy_api& api) {
  if (!p.cooperative_launch) throw error(errc::cooperative_unsupported, cooperative_unsupported(device));
  const unsigned long long threads = volume(cfg.block);
  const int per_sm = impl::active_blocks_per_sm(kernel, static_cast<int>(threads), cfg.dynamic_shared_bytes);
  const unsigned long long blocks = volume(cfg.grid);
  if (blocks > static_cast<unsigned long long>(per_sm) * static_cast<unsigned long long>(p.multiprocessor_count))
    throw error(errc::cooperative_too_large,
                cooperative_too_large(blocks, per_sm, p.multiprocessor_count, threads, cfg.dynamic_shared_bytes, api));
}

// A launch with clusters is checked by the backend (impl::check_cluster_launch), the
// cooperative fit counted in clusters where the hardware schedules them so.
// `api`: how the refusals spell the calls that fix them (remedy_api.hpp).
inline void check_launch(const void* kernel, const launch_config& cfg, bool cooperative, const remedy_api& api) {
  const int device = get_device();
  const device_properties& p = impl::properties_of(device);
  // The kernel's dynamic shared limit is only worth a query when the launch asks for dynamic shared memory.
  validate_launch(p, cfg, cfg.dynamic_shared_bytes ? impl::kernel_shared_limit(kernel) : 0, api);
  if (is_cluster_launch(cfg))
    impl::check_cluster_launch(kernel, cfg, device, p, cooperative);
  else if (cooperative)
    check_cooperative_fits(kernel, cfg, device, p, api);
}

}  // namespace cohort::detail
