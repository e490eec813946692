// Device memory on the CUDA backend: cudaMalloc/cudaFree, synchronous copies
// (they return with the data in place, as on the host backend), and fill as a
// small grid-stride kernel so that any trivially copyable value can be
// replicated, not only repeated bytes.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <limits>
#include <string>
#include <type_traits>

#include "cohort/detail/cuda/runtime_check.hpp"
#include "cohort/memory/device_buffer.hpp"  // declares what follows
#include "cohort/errors.hpp"

namespace cohort::detail::gpu {

template <class T>
__global__ void fill_kernel(T* dst, T value, std::size_t count) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride)
    dst[i] = value;
}

inline void copy(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind, const char* what) {
  if (bytes) check(cudaMemcpy(dst, src, bytes, kind), what);
}

}  // namespace cohort::detail::gpu

namespace cohort {

template <class T>
T* malloc_device(std::size_t count) {
  if (count == 0) return nullptr;
  if (count > std::numeric_limits<std::size_t>::max() / sizeof(T))
    throw error(errc::invalid_argument, "malloc_device: " + std::to_string(count) + " elements of " +
                                            std::to_string(sizeof(T)) + " bytes overflow the address space");
  const std::size_t bytes = count * sizeof(T);
  void* p = nullptr;
  const cudaError_t e = cudaMalloc(&p, bytes);
  if (e == cudaErrorMemoryAllocation) {
    cudaGetLastError();
    std::size_t free_bytes = 0, total_bytes = 0;
    cudaMemGetInfo(&free_bytes, &total_bytes);
    throw error(errc::out_of_memory, "malloc_device: cannot allocate " + std::to_string(bytes) +
                                         " bytes; the device has " + std::to_string(free_bytes) + " of " +
                                         std::to_string(total_bytes) + " bytes free");
  }
  detail::gpu::check(e, "malloc_device");
  return static_cast<T*>(p);
}

// Frees what malloc_device returned. A context that has already failed (a
// kernel trapped or faulted) took its memory with it: that is not reported
// again here, so that device_buffer destructors stay quiet after the fault
// has been thrown where it was detected.
inline void free_device(void* p) {
  if (!p) return;
  const cudaError_t e = cudaFree(p);
  if (e == cudaErrorInvalidValue || e == cudaErrorInvalidDevicePointer) detail::gpu::check(e, "free_device");
  cudaGetLastError();
}

template <class T>
void copy_to_device(T* device_dst, const T* host_src, std::size_t count) {
  static_assert(std::is_trivially_copyable_v<T>, "device memory holds trivially copyable types");
  detail::gpu::copy(device_dst, host_src, count * sizeof(T), cudaMemcpyHostToDevice, "copy_to_device");
}

template <class T>
void copy_to_host(T* host_dst, const T* device_src, std::size_t count) {
  static_assert(std::is_trivially_copyable_v<T>, "device memory holds trivially copyable types");
  detail::gpu::copy(host_dst, device_src, count * sizeof(T), cudaMemcpyDeviceToHost, "copy_to_host");
}

template <class T>
void copy_on_device(T* device_dst, const T* device_src, std::size_t count) {
  static_assert(std::is_trivially_copyable_v<T>, "device memory holds trivially copyable types");
  detail::gpu::copy(device_dst, device_src, count * sizeof(T), cudaMemcpyDeviceToDevice, "copy_on_device");
}

// Runs on the legacy default stream, so copies and cohort streams (which are
// blocking streams) issued afterwards see the filled memory.
template <class T>
void fill(T* device_dst, const T& value, std::size_t count) {
  static_assert(std::is_trivially_copyable_v<T>, "device memory holds trivially copyable types");
  if (count == 0) return;
  constexpr unsigned threads = 256;
  constexpr std::size_t max_blocks = 4096;  // a grid-stride loop covers the rest
  const std::size_t wanted = (count + threads - 1) / threads;
  const unsigned blocks = static_cast<unsigned>(wanted < max_blocks ? wanted : max_blocks);
  detail::gpu::fill_kernel<T><<<blocks, threads>>>(device_dst, value, count);
  detail::gpu::check(cudaGetLastError(), "fill");
}

}  // namespace cohort
