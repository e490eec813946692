// The kernel language on the CUDA backend is CUDA's own.
#pragma once

#include <cuda_runtime.h>
