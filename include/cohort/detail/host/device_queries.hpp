// The device primitives of the host backend: the virtual devices
// (cohort/host/virtual_device.hpp), and nothing to wait for, since every
// launch has completed when it returns.
#pragma once

#include "cohort/host/virtual_device.hpp"
#include "cohort/launch/device.hpp"

namespace cohort::detail::host {

// The virtual devices (src/host_runtime/launch/virtual_devices.cpp), all described by virtual_device().
int virtual_device_count();
int current_virtual_device();
void set_current_virtual_device(int device);

inline int count_devices() { return virtual_device_count(); }
inline int current_device() { return current_virtual_device(); }
inline void select_device(int device) { set_current_virtual_device(device); }
inline device_properties properties_of(int) { return cohort::host::virtual_device(); }
inline void synchronize_device() noexcept {}

}  // namespace cohort::detail::host
