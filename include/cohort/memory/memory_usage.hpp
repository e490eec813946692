// How much of a device's memory is free: cohort::memory_usage(device).
#pragma once

#include <cstddef>

namespace cohort {

struct device_memory_usage {
  std::size_t free_bytes = 0;
  std::size_t total_bytes = 0;
};

}  // namespace cohort
