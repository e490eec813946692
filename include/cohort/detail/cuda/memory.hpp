// The memory primitives of the CUDA backend: cudaMalloc/cudaFree, synchronous
// copies (they return with the data in place, as on the host backend), and
// fill as a small grid-stride kernel so that any trivially copyable value can
// be replicated, not only repeated bytes.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <string>

#include "cohort/detail/copy_direction.hpp"
#include "cohort/detail/cuda/runtime/runtime_check.hpp"
#include "cohort/errors.hpp"
#include "cohort/memory/memory_usage.hpp"

namespace cohort::detail::gpu {

// A zero-byte request allocates nothing: cudaMalloc would answer null anyway.
inline void* allocate_device(std::size_t bytes) {
  if (bytes == 0) return nullptr;
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
  check(e, "malloc_device");
  return p;
}

// A context that has already failed (a kernel trapped or faulted) took its
// memory with it: that is not reported again here, so that device_buffer
// destructors stay quiet after the fault has been thrown where it was detected.
inline void release_device(void* p) {
  if (!p) return;
  const cudaError_t e = cudaFree(p);
  if (e == cudaErrorInvalidValue || e == cudaErrorInvalidDevicePointer) check(e, "free_device");
  cudaGetLastError();
}

inline void copy_bytes(void* dst, const void* src, std::size_t bytes, copy_direction direction) {
  const cudaMemcpyKind kind = direction == copy_direction::to_device ? cudaMemcpyHostToDevice
                              : direction == copy_direction::to_host ? cudaMemcpyDeviceToHost
                                                                     : cudaMemcpyDeviceToDevice;
  if (bytes) check(cudaMemcpy(dst, src, bytes, kind), copy_function(direction));
}

// The device whose memory holds p (device or managed memory), or -1.
inline int owner_of(const void* p) {
  cudaPointerAttributes a{};
  if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
    cudaGetLastError();
    return -1;
  }
  return a.type == cudaMemoryTypeDevice || a.type == cudaMemoryTypeManaged ? a.device : -1;
}

inline device_memory_usage usage_of(int device) {
  int current = 0;
  check(cudaGetDevice(&current), "memory_usage");
  check(cudaSetDevice(device), "memory_usage");
  device_memory_usage u;
  const cudaError_t e = cudaMemGetInfo(&u.free_bytes, &u.total_bytes);
  cudaSetDevice(current);
  check(e, "memory_usage");
  return u;
}

inline void copy_between_devices(void* dst, int dst_device, const void* src, int src_device, std::size_t bytes) {
  if (bytes) check(cudaMemcpyPeer(dst, dst_device, src, src_device, bytes), "copy_peer");
}

template <class T>
__global__ void fill_kernel(T* dst, T value, std::size_t count) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride)
    dst[i] = value;
}

// Runs on the legacy default stream, so copies and cohort streams (which are
// blocking streams) issued afterwards see the filled memory.
template <class T>
void fill_values(T* dst, const T& value, std::size_t count) {
  constexpr unsigned threads = 256;
  constexpr std::size_t max_blocks = 4096;  // a grid-stride loop covers the rest
  const std::size_t wanted = (count + threads - 1) / threads;
  const unsigned blocks = static_cast<unsigned>(wanted < max_blocks ? wanted : max_blocks);
  fill_kernel<T><<<blocks, threads>>>(dst, value, count);
  check(cudaGetLastError(), "fill");
}

}  // namespace cohort::detail::gpu
