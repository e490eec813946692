// Devices: count, selection, properties and attributes, written once over the
// backend's device primitives (detail/<backend>/device_queries.hpp): the
// virtual device on the host backend, the CUDA runtime's devices on cuda.
#pragma once

#include "cohort/backend.hpp"
#include "cohort/detail/messages.hpp"
#include "cohort/errors.hpp"
#include "cohort/launch/device.hpp"

#include COHORT_BACKEND_HEADER(device_queries.hpp)

namespace cohort {

// The devices: the GPUs, or the host backend's COHORT_DEVICE_COUNT virtual devices, each with
// its own memory (memory_usage, device_of, copy_peer in memory/device_memory.hpp).
inline int device_count() { return detail::impl::count_devices(); }
inline int get_device() { return detail::impl::current_device(); }

namespace detail {
// `device`, or the current device for -1 (any negative value).
inline int checked_device(int device, const char* what) {
  if (device < 0) return get_device();
  const int n = device_count();
  if (device >= n) throw error(errc::invalid_argument, no_such_device(what, device, n));
  return device;
}
}  // namespace detail

inline void set_device(int device) {
  if (device < 0) throw error(errc::invalid_argument, "set_device: device " + std::to_string(device) + " is negative");
  detail::impl::select_device(detail::checked_device(device, "set_device"));
}

inline device_properties get_device_properties(int device = -1) {
  return detail::impl::properties_of(detail::checked_device(device, "get_device_properties"));
}

inline long long get_device_attribute(device_attribute attribute, int device = -1) {
  return attribute_of(detail::impl::properties_of(detail::checked_device(device, "get_device_attribute")), attribute);
}

inline void device_synchronize() { detail::impl::synchronize_device(); }

}  // namespace cohort
