// The stream handle a launch_config carries on the CUDA backend.
#pragma once

#include <cuda_runtime.h>

namespace cohort {
using stream_t = cudaStream_t;
}  // namespace cohort
