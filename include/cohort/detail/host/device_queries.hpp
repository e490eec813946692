// The device primitives of the host backend: one device, the virtual device
// (cohort/host/virtual_device.hpp), and nothing to wait for, since every
// launch has completed when it returns.
#pragma once

#include "cohort/host/virtual_device.hpp"
#include "cohort/launch/device.hpp"

namespace cohort::detail::host {

inline int count_devices() noexcept { return 1; }
inline int current_device() noexcept { return 0; }
inline void select_device(int) noexcept {}
inline device_properties properties_of(int) { return cohort::host::virtual_device(); }
inline void synchronize_device() noexcept {}

}  // namespace cohort::detail::host
