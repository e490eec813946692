#include "platform_checks.hpp"

namespace cohort_cli {

std::vector<cohort_kernels::check_result> platform_checks() {
  return {{"driver / runtime versions", true, "n/a: the host backend needs no CUDA driver or runtime"},
          {"MPS", true, "n/a: the host backend runs no MPS client"}};
}

}  // namespace cohort_cli
