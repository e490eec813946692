// The device primitives of the CUDA backend, read from the CUDA runtime.
// Properties never change while a process runs, so each device's record is
// read once (cudaGetDeviceProperties is slow) and launches validate against
// the cached copy at no cost.
#pragma once

#include <cuda_runtime.h>

#include <memory>
#include <mutex>
#include <vector>

#include "cohort/detail/cuda/runtime/runtime_check.hpp"
#include "cohort/launch/device.hpp"

namespace cohort::detail::gpu {

inline int count_devices() {
  int n = 0;
  const cudaError_t e = cudaGetDeviceCount(&n);
  // No GPU or no driver is an answer, not a failure: there are zero devices.
  if (e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver) {
    cudaGetLastError();
    return 0;
  }
  check(e, "device_count");
  return n;
}

inline int current_device() {
  int d = 0;
  check(cudaGetDevice(&d), "get_device");
  return d;
}

inline void select_device(int device) { check(cudaSetDevice(device), "set_device"); }
inline void synchronize_device() { check(cudaDeviceSynchronize(), "device_synchronize"); }

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
inline const device_properties& properties_of(int device) {
  static std::mutex guard;
  static std::vector<std::unique_ptr<const device_properties>> cache;
  const std::lock_guard<std::mutex> lock(guard);
  if (cache.empty()) cache.resize(static_cast<std::size_t>(count_devices()));
  auto& slot = cache.at(static_cast<std::size_t>(device));
  if (!slot) slot = std::make_unique<const device_properties>(read_properties(device));
  return *slot;
}

}  // namespace cohort::detail::gpu
