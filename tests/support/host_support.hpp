// Helpers for tests of the host backend only.
#pragma once

#include <gtest/gtest.h>

#include <cohort/errors.hpp>
#include <cohort/host/settings.hpp>
#include <cohort/host/virtual_device.hpp>
#include <cstddef>
#include <cstdlib>
#include <string>

// The runtime's count of fiber stacks (src/host_runtime/fibers/fiber.hpp), for tests that
// check stacks are given back.
namespace cohort::detail::host {
struct stack_census {
  std::size_t mapped, guarded, retained;
};
stack_census stacks_in_use();
}  // namespace cohort::detail::host

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

// The error a launch raised (a test failure if it raised none).
template <class F>
cohort::error launch_error(F&& launch_it) {
  try {
    launch_it();
  } catch (const cohort::error& e) {
    return e;
  }
  ADD_FAILURE() << "the launch raised no error";
  return cohort::error(cohort::errc::runtime, "");
}

// "file.cpp:LINE:", as diagnostics name a call site.
inline std::string at_line(const char* file, int line) { return std::string(file) + ":" + std::to_string(line) + ":"; }

// Sets a COHORT_* variable for the scope. The runtime reads them once, so the
// settings are read again as it is set and as it is unset.
class scoped_env {
 public:
  scoped_env(const char* name, const char* value) : name_(name) {
    setenv(name, value, 1);
    cohort::host::reload_settings();
  }
  ~scoped_env() {
    unsetenv(name_);
    cohort::host::reload_settings();
  }
  scoped_env(const scoped_env&) = delete;
  scoped_env& operator=(const scoped_env&) = delete;

 private:
  const char* name_;
};

}  // namespace cohort_test
