// How diagnostics spell the call that raises a kernel's dynamic shared memory
// limit: the program's own API, so that a program written against CUDA's
// runtime (src/compat) is pointed at cudaFuncSetAttribute, a call it makes,
// rather than at cohort's, which it never sees.
#pragma once

#include <string_view>

namespace cohort::detail {

struct shared_limit_api {
  std::string_view name;  // heads the refusal of a limit the device does not allow
  std::string_view call;  // the call as the program writes it, up to its byte count
};

inline constexpr shared_limit_api cohort_shared_limit_api{"set_max_dynamic_shared_memory",
                                                          "cohort::set_max_dynamic_shared_memory(kernel, "};

}  // namespace cohort::detail
