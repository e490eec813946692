// threadIdx, blockIdx, blockDim, gridDim and warpSize: cohort's kernel language.
#pragma once
#define __DEVICE_LAUNCH_PARAMETERS_H__  // NVIDIA's include guard: programs test it

#include "cuda_runtime.h"
