// How many virtual devices the host backend offers, and which is current.
#pragma once

namespace cohort::detail::host {

int virtual_device_count();
// Throws cohort::error(errc::invalid_argument) for a device that does not exist (-1: the current one).
void check_virtual_device(int device);
int current_virtual_device();
void set_current_virtual_device(int device);

}  // namespace cohort::detail::host
