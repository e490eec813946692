// Helpers for tests of the host backend only.
#pragma once

#include <cohort/host/virtual_device.hpp>

namespace cohort_test {

// Restores the virtual device a test reconfigured.
class virtual_device_guard {
 public:
  virtual_device_guard() : saved_(cohort::host::virtual_device()) {}
  ~virtual_device_guard() { cohort::host::configure(saved_); }
  virtual_device_guard(const virtual_device_guard&) = delete;
  virtual_device_guard& operator=(const virtual_device_guard&) = delete;

 private:
  cohort::device_properties saved_;
};

}  // namespace cohort_test
