// One line naming the device a program runs on, for the examples' headers
// and the reports of `cohort bench`. Host code that needs only the
// properties record, not a backend.
#pragma once

#include <string>

#include <cohort/launch/device.hpp>

namespace cohort_kernels {

inline const char* backend_name(cohort::backend b) { return b == cohort::backend::cuda ? "cuda" : "host"; }

inline std::string device_summary(const cohort::device_properties& p) {
  std::string s = p.name + " (" + backend_name(p.kind) + " backend, " + std::to_string(p.multiprocessor_count) +
                  " SMs, warp " + std::to_string(p.warp_size);
  if (p.kind == cohort::backend::cuda)
    s += ", sm_" + std::to_string(p.compute_capability_major) + std::to_string(p.compute_capability_minor);
  return s + ")";
}

}  // namespace cohort_kernels
