// What cohort-cuda measures cohort against in the same run: CUB and NVIDIA's
// cooperative groups (rivals_cuda.cpp, the only source that includes them).
// The host build's (rivals_host.cpp) are the standard library's parallel
// algorithms and the host's native whole-array reduce and scan.
#pragma once

#include <vector>

#include "reduce/reduce_plan.hpp"
#include "timed/scan.hpp"
#include "timed/sync.hpp"

namespace cohort_cli {

using namespace cohort_kernels;  // the kernels it times (kernels/timed)

// cub::DeviceReduce::Sum; a cooperative kernel reducing with
// cooperative_groups::reduce on warp tiles and NVIDIA's grid.sync().
std::vector<cohort_kernels::reduce_variant> reduce_rivals();
// cub::DeviceScan::InclusiveSum.
std::vector<scan_variant> scan_rivals();
// The sync bench's own kernels on NVIDIA's groups, named "nvidia-...".
std::vector<sync_variant> sync_rivals();

}  // namespace cohort_cli
