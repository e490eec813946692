// A 32-bit hash (lowbias32), for inputs that differ from thread to thread and
// that kernels and host-side checks compute alike.
#pragma once

#include <cohort/kernel_language.hpp>

namespace cohort_kernels {

__host__ __device__ inline unsigned mix(unsigned x) {
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}

}  // namespace cohort_kernels
