// The memory primitives of the host backend. Device memory is host memory,
// but it is tracked (src/host_runtime/memory/memory.cpp): a copy or fill that runs past an
// allocation, or a pointer that no allocation holds, is an error, as it would
// be a fault on a GPU. Each allocation belongs to the virtual device current
// when it was made, and each device has its own capacity.
#pragma once

#include <cstddef>
#include <cstring>
#include <string>

#include "cohort/detail/copy_direction.hpp"
#include "cohort/memory/memory_usage.hpp"

namespace cohort::detail::host {

// A zero-byte request is a real (tracked) allocation, so that its pointer names it in messages.
// Throws errc::out_of_memory when the current device's capacity cannot hold it.
void* allocate_device(std::size_t bytes);
void release_device(void* p);
// Throws unless [p, p + bytes) lies inside one live allocation.
void check_device_range(const void* p, std::size_t bytes, const std::string& what);

// The device whose allocation holds p, or -1.
int owner_of(const void* p);
// The device's capacity (the virtual device's total_global_memory) and what its allocations leave free.
device_memory_usage usage_of(int device);

// Both sides are checked to lie in live allocations (whose owners the caller has checked).
inline void copy_between_devices(void* dst, int, const void* src, int, std::size_t bytes) {
  check_device_range(dst, bytes, "copy_peer destination");
  check_device_range(src, bytes, "copy_peer source");
  if (bytes) std::memmove(dst, src, bytes);
}

inline void copy_bytes(void* dst, const void* src, std::size_t bytes, copy_direction direction) {
  const std::string what = copy_function(direction);
  if (direction != copy_direction::to_host) check_device_range(dst, bytes, what + " destination");
  if (direction != copy_direction::to_device) check_device_range(src, bytes, what + " source");
  if (bytes) std::memmove(dst, src, bytes);
}

template <class T>
void fill_values(T* dst, const T& value, std::size_t count) {
  check_device_range(dst, count * sizeof(T), "fill destination");
  for (std::size_t i = 0; i < count; ++i) std::memcpy(dst + i, &value, sizeof(T));
}

}  // namespace cohort::detail::host
