// A reduction planned for one input size: its launch shape worked out and its
// scratch memory allocated once, so that timing a run times only the run.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

namespace cohort_kernels {

struct reduce_plan {
  std::string launch;  // the grids it launches, e.g. "16x256 + 1x256"
  // Sums in[0, n) into *out; both are device pointers.
  std::function<void(const float* in, float* out)> run;
};

// One of the reductions: its name in reports and how to plan it.
struct reduce_variant {
  std::string_view name;
  std::string_view summary;
  reduce_plan (*plan)(std::size_t n);
};

}  // namespace cohort_kernels
