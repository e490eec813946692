// threadIdx, blockIdx, blockDim, gridDim and warpSize: cohort's kernel language.
#pragma once

#include "cuda_runtime.h"
