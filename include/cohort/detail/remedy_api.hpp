// How a refused launch spells the calls that fix it: in the program's own
// API, so that a program written against CUDA's runtime (src/compat) is
// pointed at cudaFuncSetAttribute and the occupancy query, calls it makes,
// rather than at cohort's, which it never sees.
#pragma once

#include <string_view>

namespace cohort::detail {

struct remedy_api {
  std::string_view shared_limit_name;  // heads the refusal of a shared memory limit the device does not allow
  std::string_view shared_limit_call;  // the call that raises a kernel's limit, up to its byte count
  // How to size a cooperative grid: grid_sizing_call, the block's threads,
  // ", ", the dynamic shared bytes, then grid_sizing_tail.
  std::string_view grid_sizing_call;
  std::string_view grid_sizing_tail;
};

inline constexpr remedy_api cohort_remedy_api{"set_max_dynamic_shared_memory",
                                              "cohort::set_max_dynamic_shared_memory(kernel, ",
                                              "cohort::max_cooperative_grid(kernel, ", ")"};

}  // namespace cohort::detail
