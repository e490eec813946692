// What the runtime's tests share: a fresh device for every test, and the
// texts a refusal's message is asserted against.
#pragma once

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <sstream>
#include <string>

// Every test starts where cudaDeviceReset leaves the device: no memory, no errors.
class FreshDevice : public ::testing::Test {
 protected:
  void TearDown() override { cudaDeviceReset(); }
};

// cohort's message for the latest error of that code.
inline std::string detail_of(cudaError_t e) { return cohort::compat::error_detail(e); }

// A pointer as the runtime's messages print it.
inline std::string address_text(const void* p) {
  std::ostringstream s;
  s << p;
  return s.str();
}
