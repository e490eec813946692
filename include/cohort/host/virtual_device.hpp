// The host backend's virtual device: what the CPU offers a kernel. Defaults
// fit the machine (one SM per hardware thread, warp size 32) and the
// environment overrides them (docs/host-backend.md lists the variables);
// configure() replaces the description from code, e.g. to emulate warp size 64.
#pragma once

#include "cohort/launch/device.hpp"

namespace cohort::host {

device_properties virtual_device();
// Throws cohort::error(errc::invalid_argument) for a description the host
// cannot run (warp size other than 32/64, non-positive counts, ...).
void configure(const device_properties& description);
// Back to the defaults: the machine plus the environment.
void reset_virtual_device();
device_properties default_virtual_device();

}  // namespace cohort::host
