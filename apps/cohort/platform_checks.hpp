// The checks of `cohort doctor` that only a GPU platform has answers for:
// driver and runtime versions, MPS (on the current device). Each backend's
// build provides them; on the host backend they do not apply. Doctor runs
// them before it looks for devices: a missing driver explains a missing device.
#pragma once

#include <vector>

#include "common/check_result.hpp"

namespace cohort_cli {

std::vector<cohort_kernels::check_result> platform_checks();

}  // namespace cohort_cli
