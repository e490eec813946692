// Device memory on the host backend is host memory, but it is tracked: a copy
// or fill that runs past an allocation, or a pointer that no allocation
// holds, is an error, as it would be a fault on a GPU.
#pragma once

#include <cstddef>
#include <cstring>
#include <type_traits>

#include "cohort/memory/device_buffer.hpp"  // declares what follows

namespace cohort::detail::host {

void* allocate_device(std::size_t bytes);
void release_device(void* p);
// Throws unless [p, p + bytes) lies inside one live allocation.
void check_device_range(const void* p, std::size_t bytes, const char* what);

}  // namespace cohort::detail::host

namespace cohort {

template <class T>
T* malloc_device(std::size_t count) {
  return static_cast<T*>(detail::host::allocate_device(count * sizeof(T)));
}

inline void free_device(void* p) { detail::host::release_device(p); }

template <class T>
void copy_to_device(T* device_dst, const T* host_src, std::size_t count) {
  static_assert(std::is_trivially_copyable_v<T>, "device memory holds trivially copyable types");
  detail::host::check_device_range(device_dst, count * sizeof(T), "copy_to_device destination");
  if (count) std::memcpy(device_dst, host_src, count * sizeof(T));
}

template <class T>
void copy_to_host(T* host_dst, const T* device_src, std::size_t count) {
  static_assert(std::is_trivially_copyable_v<T>, "device memory holds trivially copyable types");
  detail::host::check_device_range(device_src, count * sizeof(T), "copy_to_host source");
  if (count) std::memcpy(host_dst, device_src, count * sizeof(T));
}

template <class T>
void copy_on_device(T* device_dst, const T* device_src, std::size_t count) {
  static_assert(std::is_trivially_copyable_v<T>, "device memory holds trivially copyable types");
  detail::host::check_device_range(device_dst, count * sizeof(T), "copy_on_device destination");
  detail::host::check_device_range(device_src, count * sizeof(T), "copy_on_device source");
  if (count) std::memmove(device_dst, device_src, count * sizeof(T));
}

template <class T>
void fill(T* device_dst, const T& value, std::size_t count) {
  static_assert(std::is_trivially_copyable_v<T>, "device memory holds trivially copyable types");
  detail::host::check_device_range(device_dst, count * sizeof(T), "fill destination");
  for (std::size_t i = 0; i < count; ++i) std::memcpy(device_dst + i, &value, sizeof(T));
}

}  // namespace cohort
