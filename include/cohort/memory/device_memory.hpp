// Device memory: allocation, synchronous copies and fill, written once over
// the backend's memory primitives (detail/<backend>/memory.hpp):
// allocate_device, release_device, copy_bytes, fill_values, and per device
// owner_of, usage_of and copy_between_devices. The copies return with the
// data in place on both backends. An allocation belongs to the device that
// was current when it was made (on the host backend too: each virtual device
// has its own memory). docs/api.md lists the API.
#pragma once

#include <cstddef>
#include <limits>
#include <string>
#include <type_traits>

#include "cohort/backend.hpp"
#include "cohort/detail/copy_direction.hpp"
#include "cohort/errors.hpp"
#include "cohort/launch/device_queries.hpp"
#include "cohort/memory/memory_usage.hpp"

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

// The device whose allocation holds `p` (an address anywhere inside it).
inline int device_of(const void* p) {
  const int owner = detail::impl::owner_of(p);
  if (owner < 0) throw error(errc::invalid_argument, detail::not_device_memory("device_of", p));
  return owner;
}

// The device's memory: its capacity and how much of it is free (-1: the current device).
inline device_memory_usage memory_usage(int device = -1) {
  return detail::impl::usage_of(detail::checked_device(device, "memory_usage"));
}

// A copy from device `src_device`'s memory to device `dst_device`'s (cudaMemcpyPeer's
// order of arguments); each pointer must lie in an allocation of the device named with it.
template <class T>
void copy_peer(T* dst, int dst_device, const T* src, int src_device, std::size_t count) {
  static_assert(std::is_trivially_copyable_v<T>, "device memory holds trivially copyable types");
  if (count > std::numeric_limits<std::size_t>::max() / sizeof(T))
    throw error(errc::invalid_argument, "copy_peer: " + std::to_string(count) + " elements overflow the address space");
  if (count == 0) return;
  const int to = detail::checked_device(dst_device, "copy_peer"),
            from = detail::checked_device(src_device, "copy_peer");
  detail::check_owner("copy_peer", "destination", dst, to, detail::impl::owner_of(dst));
  detail::check_owner("copy_peer", "source", src, from, detail::impl::owner_of(src));
  detail::impl::copy_between_devices(dst, to, src, from, count * sizeof(T));
}

}  // namespace cohort
