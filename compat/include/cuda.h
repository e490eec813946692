// The driver API is not provided on the host backend (docs/cuda-compat.md);
// this header gives CUDA_VERSION and the runtime API, which is what programs
// that include <cuda.h> for the version check need.
#pragma once

#include "cuda_runtime_api.h"

#ifndef CUDA_VERSION
#define CUDA_VERSION CUDART_VERSION
#endif
