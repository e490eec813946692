// <driver_functions.h>: an internal header of the CUDA toolkit that older programs include
// directly; on the host backend what it declares comes with <cuda_runtime_api.h>.
#pragma once

#include "cuda_runtime_api.h"
