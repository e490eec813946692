// The copies that bandwidth is measured against: a grid-stride kernel over the
// same resident grid the reductions use, reading one element per thread and
// step as the simplest kernels do, and one moving 16 bytes per thread and
// step, which is what a kernel on this device can stream (the bench also
// times the runtime's own device-to-device copy).
#pragma once

#include <cstddef>

#include <cohort/cohort.hpp>

namespace cohort_kernels {

template <class T>
__global__ void copy_kernel(T* __restrict__ out, const T* __restrict__ in, std::size_t n) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    out[i] = in[i];
}

// 16 bytes, moved as one load and one store.
struct alignas(16) sixteen_bytes {
  unsigned word[4];
};

// Copies n elements of T, whose arrays start 16-byte aligned (device
// allocations do): the whole 16-byte vectors, then the elements after them.
template <class T>
__global__ void vector_copy_kernel(T* __restrict__ out, const T* __restrict__ in, std::size_t n) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  const std::size_t first = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::size_t vectors = n * sizeof(T) / sizeof(sixteen_bytes);
  const auto* src = reinterpret_cast<const sixteen_bytes*>(in);
  auto* dst = reinterpret_cast<sixteen_bytes*>(out);
  for (std::size_t i = first; i < vectors; i += stride) dst[i] = src[i];
  for (std::size_t i = vectors * sizeof(sixteen_bytes) / sizeof(T) + first; i < n; i += stride) out[i] = in[i];
}

}  // namespace cohort_kernels
