// The copy that bandwidth is measured against: a grid-stride kernel over the
// same resident grid the reductions use, so that it reads memory the way they
// do and its bandwidth is what a kernel on this device can stream.
#pragma once

#include <cstddef>

#include <cohort/cohort.hpp>

namespace cohort_cli {

template <class T>
__global__ void copy_kernel(T* __restrict__ out, const T* __restrict__ in, std::size_t n) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    out[i] = in[i];
}

}  // namespace cohort_cli
