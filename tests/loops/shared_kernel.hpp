// A kernel template that two translation units instantiate, one built at -O2
// (kernels.cpp) and one at -O0 (kernels_unoptimized.cpp): the linker keeps one
// definition, both register it, and the lowering must win over the -O0
// unit's fallback whatever order their constructors run in.
#pragma once

#include <cohort/cohort.hpp>

template <class T>
__global__ void shared_reverse_kernel(const T* in, T* out) {
  __shared__ T values[1024];
  values[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = values[blockDim.x - 1 - threadIdx.x] * 3;
}
