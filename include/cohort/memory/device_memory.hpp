// Device memory: allocation, synchronous copies and fill, written once over
// the backend's memory primitives (detail/<backend>/memory.hpp):
// allocate_device, release_device, copy_bytes and fill_values. The copies
// return with the data in place on both backends. docs/api.md lists the API.
#pragma once

#include <cstddef>
#include <limits>
#include <string>
#include <type_traits>

#include "cohort/backend.hpp"
#include "cohort/detail/copy_direction.hpp"
#include "cohort/errors.hpp"

#include COHORT_BACKEND_HEADER(memory.hpp)

namespace cohort {

// Room for `count` elements of T, aligned to 256 bytes as cudaMalloc aligns.
template <class T>
T* malloc_device(std::size_t count) {
  if (count > std::numeric_limits<std::size_t>::max() / sizeof(T))
    throw error(errc::invalid_argument, "malloc_device: " + std::to_string(count) + " elements of " +
                                            std::to_string(sizeof(T)) + " bytes overflow the address space");
  return static_cast<T*>(detail::impl::allocate_device(count * sizeof(T)));
}

// Frees what malloc_device returned; a null pointer is ignored.
inline void free_device(void* p) { detail::impl::release_device(p); }

template <class T>
void copy_to_device(T* device_dst, const T* host_src, std::size_t count) {
  static_assert(std::is_trivially_copyable_v<T>, "device memory holds trivially copyable types");
  detail::impl::copy_bytes(device_dst, host_src, count * sizeof(T), detail::copy_direction::to_device);
}

template <class T>
void copy_to_host(T* host_dst, const T* device_src, std::size_t count) {
  static_assert(std::is_trivially_copyable_v<T>, "device memory holds trivially copyable types");
  detail::impl::copy_bytes(host_dst, device_src, count * sizeof(T), detail::copy_direction::to_host);
}

// The ranges may overlap.
template <class T>
void copy_on_device(T* device_dst, const T* device_src, std::size_t count) {
  static_assert(std::is_trivially_copyable_v<T>, "device memory holds trivially copyable types");
  detail::impl::copy_bytes(device_dst, device_src, count * sizeof(T), detail::copy_direction::on_device);
}

// Every element becomes `value`: any trivially copyable value, not only a repeated byte.
template <class T>
void fill(T* device_dst, const T& value, std::size_t count) {
  static_assert(std::is_trivially_copyable_v<T>, "device memory holds trivially copyable types");
  if (count) detail::impl::fill_values(device_dst, value, count);
}

}  // namespace cohort
