// The host backend's virtual devices: COHORT_DEVICE_COUNT of them (1 unless
// set), alike (each described by the virtual device, see
// virtual_device.hpp), every one a peer of every other. The current device
// is per host thread, as CUDA's is.
#include <string>

#include "cohort/errors.hpp"
#include "launch/settings.hpp"
#include "launch/virtual_devices.hpp"
#include "scheduling/runtime_tls.hpp"

namespace cohort::detail::host {

int virtual_device_count() { return settings::device_count(); }

void check_virtual_device(int device) {
  const int count = virtual_device_count();
  if (device < -1 || device >= count)
    throw error(errc::invalid_argument, "device " + std::to_string(device) + " does not exist: the host backend has " +
                                            std::to_string(count) + " virtual device(s), 0.." +
                                            std::to_string(count - 1) + " (COHORT_DEVICE_COUNT sets how many)");
}

int current_virtual_device() { return current_device_index; }
void set_current_virtual_device(int device) {
  check_virtual_device(device);
  current_device_index = device;
}

}  // namespace cohort::detail::host
