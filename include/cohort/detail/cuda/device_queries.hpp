// Devices on the CUDA backend: count, selection, properties and attributes,
// read from the CUDA runtime. Properties never change while a process runs, so
// each device's record is read once (cudaGetDeviceProperties is slow) and
// launches validate against the cached copy at no cost.
#pragma once

#include <cuda_runtime.h>

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "cohort/detail/cuda/runtime_check.hpp"
#include "cohort/launch/device.hpp"
#include "cohort/errors.hpp"

namespace cohort {

inline int device_count() {
  int n = 0;
  const cudaError_t e = cudaGetDeviceCount(&n);
  // No GPU or no driver is an answer, not a failure: there are zero devices.
  if (e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver) {
    cudaGetLastError();
    return 0;
  }
  detail::gpu::check(e, "device_count");
  return n;
}

inline int get_device() {
  int d = 0;
  detail::gpu::check(cudaGetDevice(&d), "get_device");
  return d;
}

namespace detail::gpu {

inline int checked_device(int device, const char* what) {
  if (device < 0) return get_device();
  const int n = device_count();
  if (device >= n)
    throw error(errc::invalid_argument, std::string(what) + ": device " + std::to_string(device) +
                                            " does not exist (this machine has " + std::to_string(n) +
                                            " CUDA device" + (n == 1 ? "" : "s") + ")");
  return device;
}

inline device_properties read_properties(int device) {
  cudaDeviceProp p{};
  check(cudaGetDeviceProperties(&p, device), "get_device_properties");
  device_properties d;
  d.name = p.name;
  d.kind = backend::cuda;
  d.compute_capability_major = p.major;
  d.compute_capability_minor = p.minor;
  d.multiprocessor_count = p.multiProcessorCount;
  d.warp_size = p.warpSize;
  d.max_threads_per_block = p.maxThreadsPerBlock;
  d.max_block_dim = {p.maxThreadsDim[0], p.maxThreadsDim[1], p.maxThreadsDim[2]};
  d.max_grid_dim = {p.maxGridSize[0], p.maxGridSize[1], p.maxGridSize[2]};
  d.max_threads_per_multiprocessor = p.maxThreadsPerMultiProcessor;
  d.max_blocks_per_multiprocessor = p.maxBlocksPerMultiProcessor;
  d.shared_memory_per_block = p.sharedMemPerBlock;
  d.shared_memory_per_block_optin = p.sharedMemPerBlockOptin;
  d.shared_memory_per_multiprocessor = p.sharedMemPerMultiprocessor;
  d.reserved_shared_memory_per_block = p.reservedSharedMemPerBlock;
  d.total_global_memory = p.totalGlobalMem;
  d.cooperative_launch = p.cooperativeLaunch != 0;
  return d;
}

// The properties of a device, read on first use; the reference stays valid
// for the life of the process.
inline const device_properties& cached_properties(int device) {
  static std::mutex guard;
  static std::vector<std::unique_ptr<const device_properties>> cache;
  const std::lock_guard<std::mutex> lock(guard);
  if (cache.empty()) cache.resize(static_cast<std::size_t>(device_count()));
  auto& slot = cache.at(static_cast<std::size_t>(device));
  if (!slot) slot = std::make_unique<const device_properties>(read_properties(device));
  return *slot;
}

}  // namespace detail::gpu

inline void set_device(int device) {
  if (device < 0) throw error(errc::invalid_argument, "set_device: device " + std::to_string(device) + " is negative");
  detail::gpu::check(cudaSetDevice(detail::gpu::checked_device(device, "set_device")), "set_device");
}

inline device_properties get_device_properties(int device = -1) {
  return detail::gpu::cached_properties(detail::gpu::checked_device(device, "get_device_properties"));
}

inline long long get_device_attribute(device_attribute attribute, int device = -1) {
  return attribute_of(
      detail::gpu::cached_properties(detail::gpu::checked_device(device, "get_device_attribute")), attribute);
}

inline void device_synchronize() { detail::gpu::check(cudaDeviceSynchronize(), "device_synchronize"); }

}  // namespace cohort
