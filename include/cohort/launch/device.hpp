// Device properties and attributes, the same struct on both backends. On the
// host backend they describe the virtual device (see docs/host-backend.md); on
// the cuda backend they are read from the CUDA runtime.
#pragma once

#include <array>
#include <cstddef>
#include <string>

#include "cohort/backend.hpp"

namespace cohort {

struct device_properties {
  std::string name;
  backend kind = this_backend;
  int compute_capability_major = 0;  // 0.0 on the host backend
  int compute_capability_minor = 0;
  int multiprocessor_count = 0;
  int warp_size = 32;
  int max_threads_per_block = 1024;
  std::array<int, 3> max_block_dim{1024, 1024, 64};
  std::array<int, 3> max_grid_dim{2147483647, 65535, 65535};
  int max_threads_per_multiprocessor = 2048;
  int max_blocks_per_multiprocessor = 32;
  std::size_t shared_memory_per_block = 48 * 1024;         // without opt-in
  std::size_t shared_memory_per_block_optin = 227 * 1024;  // the most a kernel may opt in to
  std::size_t shared_memory_per_multiprocessor = 228 * 1024;
  std::size_t reserved_shared_memory_per_block = 1024;  // taken by the runtime per resident block
  std::size_t total_global_memory = 0;
  bool cooperative_launch = true;
};

enum class device_attribute {
  cooperative_launch,
  multiprocessor_count,
  warp_size,
  max_threads_per_block,
  max_block_dim_x,
  max_block_dim_y,
  max_block_dim_z,
  max_grid_dim_x,
  max_grid_dim_y,
  max_grid_dim_z,
  max_threads_per_multiprocessor,
  max_blocks_per_multiprocessor,
  max_shared_memory_per_block,
  max_shared_memory_per_block_optin,
  max_shared_memory_per_multiprocessor,
  compute_capability_major,
  compute_capability_minor,
};

// The attribute's value read off a properties record; both backends answer
// get_device_attribute() through this one table.
inline long long attribute_of(const device_properties& p, device_attribute a) {
  switch (a) {
    case device_attribute::cooperative_launch:
      return p.cooperative_launch ? 1 : 0;
    case device_attribute::multiprocessor_count:
      return p.multiprocessor_count;
    case device_attribute::warp_size:
      return p.warp_size;
    case device_attribute::max_threads_per_block:
      return p.max_threads_per_block;
    case device_attribute::max_block_dim_x:
      return p.max_block_dim[0];
    case device_attribute::max_block_dim_y:
      return p.max_block_dim[1];
    case device_attribute::max_block_dim_z:
      return p.max_block_dim[2];
    case device_attribute::max_grid_dim_x:
      return p.max_grid_dim[0];
    case device_attribute::max_grid_dim_y:
      return p.max_grid_dim[1];
    case device_attribute::max_grid_dim_z:
      return p.max_grid_dim[2];
    case device_attribute::max_threads_per_multiprocessor:
      return p.max_threads_per_multiprocessor;
    case device_attribute::max_blocks_per_multiprocessor:
      return p.max_blocks_per_multiprocessor;
    case device_attribute::max_shared_memory_per_block:
      return static_cast<long long>(p.shared_memory_per_block);
    case device_attribute::max_shared_memory_per_block_optin:
      return static_cast<long long>(p.shared_memory_per_block_optin);
    case device_attribute::max_shared_memory_per_multiprocessor:
      return static_cast<long long>(p.shared_memory_per_multiprocessor);
    case device_attribute::compute_capability_major:
      return p.compute_capability_major;
    case device_attribute::compute_capability_minor:
      return p.compute_capability_minor;
  }
  return 0;
}

}  // namespace cohort
