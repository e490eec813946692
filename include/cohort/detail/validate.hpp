// Checks a launch configuration against a device description before anything
// runs; each failure names the value, the limit and the fix.
#pragma once

#include <cstddef>
#include <sstream>

#include "cohort/detail/messages.hpp"
#include "cohort/detail/remedy_api.hpp"
#include "cohort/errors.hpp"
#include "cohort/launch/device.hpp"
#include "cohort/launch/launch_config.hpp"

namespace cohort::detail {

[[noreturn]] inline void invalid_configuration(const std::string& what) {
  throw error(errc::invalid_configuration, what);
}

// A launch over the kernel's shared memory limit is told to raise it with `api`.
inline void validate_launch(const device_properties& p, const launch_config& cfg, std::size_t kernel_shared_limit,
                            const remedy_api& api) {
  const dim3 g = cfg.grid, b = cfg.block;
  if (g.x == 0 || g.y == 0 || g.z == 0)
    invalid_configuration("grid dimensions " + to_string(g) + " contain a zero; every dimension must be at least 1");
  if (b.x == 0 || b.y == 0 || b.z == 0)
    invalid_configuration("block dimensions " + to_string(b) + " contain a zero; every dimension must be at least 1");
  const unsigned blim[3] = {b.x, b.y, b.z};
  const unsigned glim[3] = {g.x, g.y, g.z};
  const char* axis[3] = {"x", "y", "z"};
  for (std::size_t i = 0; i < 3; ++i) {
    if (blim[i] > static_cast<unsigned>(p.max_block_dim[i])) {
      std::ostringstream s;
      s << "block dimension " << axis[i] << " = " << blim[i] << " exceeds the device's limit of " << p.max_block_dim[i]
        << " (block " << to_string(b) << ")";
      invalid_configuration(s.str());
    }
    if (glim[i] > static_cast<unsigned>(p.max_grid_dim[i])) {
      std::ostringstream s;
      s << "grid dimension " << axis[i] << " = " << glim[i] << " exceeds the device's limit of " << p.max_grid_dim[i]
        << " (grid " << to_string(g) << ")";
      invalid_configuration(s.str());
    }
  }
  if (volume(b) > static_cast<unsigned long long>(p.max_threads_per_block)) {
    std::ostringstream s;
    s << "block " << to_string(b) << " has " << volume(b) << " threads, more than the " << p.max_threads_per_block
      << " a block may have; use smaller blocks and more of them";
    invalid_configuration(s.str());
  }
  if (cfg.dynamic_shared_bytes > kernel_shared_limit) {
    std::ostringstream s;
    s << "dynamic shared memory of " << cfg.dynamic_shared_bytes << " bytes exceeds this kernel's limit of "
      << kernel_shared_limit << " bytes per block; ";
    if (cfg.dynamic_shared_bytes <= p.shared_memory_per_block_optin)
      s << "raise it with " << api.shared_limit_call << cfg.dynamic_shared_bytes << ")";
    else
      s << "the device allows at most " << p.shared_memory_per_block_optin << " bytes per block";
    throw error(errc::shared_memory_limit, s.str());
  }
}

}  // namespace cohort::detail
