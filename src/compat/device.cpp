// Device management on the host backend: cohort's virtual devices
// (COHORT_DEVICE_COUNT, each with its own memory), reported as compute
// capability 9.0 (what the virtual device mirrors, and what makes
// `major >= 7` / `__CUDA_ARCH__ >= 700` guards take their real path). Every
// device is a peer of every other; peer access is bookkeeping (a kernel's
// access to another device's memory is not checked: docs/outer-levels.md).
#include <algorithm>
#include <cstring>
#include <mutex>
#include <set>
#include <utility>
#include <unistd.h>

#include "runtime_state.hpp"

namespace cohort::compat::detail {

namespace {

constexpr int compute_major = 9;
constexpr int compute_minor = 0;

cudaError_t check_device(const char* call, int device) {
  if (device >= 0 && device < cohort::device_count()) return cudaSuccess;
  return fail(cudaErrorInvalidDevice, no_such_device(call, device));
}

// (device, peer) pairs whose peer access cudaDeviceEnablePeerAccess turned on.
std::mutex peers_mutex;
std::set<std::pair<int, int>> enabled_peers;

cudaDeviceProp properties() {
  const cohort::device_properties p = cohort::get_device_properties();
  cudaDeviceProp prop{};
  std::strncpy(prop.name, p.name.c_str(), sizeof(prop.name) - 1);
  prop.totalGlobalMem = p.total_global_memory;
  prop.sharedMemPerBlock = p.shared_memory_per_block;
  prop.regsPerBlock = 65536;
  prop.warpSize = p.warp_size;
  prop.memPitch = 2147483647;
  prop.maxThreadsPerBlock = p.max_threads_per_block;
  for (int i = 0; i < 3; ++i) {
    prop.maxThreadsDim[i] = p.max_block_dim[i];
    prop.maxGridSize[i] = p.max_grid_dim[i];
  }
  prop.clockRate = 1000000;  // kHz: clock64() counts nanoseconds
  prop.totalConstMem = 65536;
  prop.major = compute_major;
  prop.minor = compute_minor;
  prop.textureAlignment = 512;
  prop.texturePitchAlignment = 32;
  prop.deviceOverlap = 1;
  prop.multiProcessorCount = p.multiprocessor_count;
  prop.integrated = 1;
  prop.canMapHostMemory = 1;
  prop.computeMode = cudaComputeModeDefault;
  prop.concurrentKernels = 1;
  prop.asyncEngineCount = 1;
  prop.unifiedAddressing = 1;
  prop.memoryClockRate = 1000000;
  prop.memoryBusWidth = 64;
  const long l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
  prop.l2CacheSize = l2 > 0 ? static_cast<int>(l2) : 0;
  prop.maxThreadsPerMultiProcessor = p.max_threads_per_multiprocessor;
  prop.streamPrioritiesSupported = 1;
  prop.globalL1CacheSupported = 1;
  prop.localL1CacheSupported = 1;
  prop.sharedMemPerMultiprocessor = p.shared_memory_per_multiprocessor;
  prop.regsPerMultiprocessor = 65536;
  prop.managedMemory = 1;
  prop.hostNativeAtomicSupported = 1;
  prop.pageableMemoryAccess = 1;
  prop.concurrentManagedAccess = 1;
  prop.canUseHostPointerForRegisteredMem = 1;
  prop.cooperativeLaunch = p.cooperative_launch ? 1 : 0;
  prop.sharedMemPerBlockOptin = p.shared_memory_per_block_optin;
  prop.pageableMemoryAccessUsesHostPageTables = 1;
  prop.directManagedMemAccessFromHost = 1;
  prop.maxBlocksPerMultiProcessor = p.max_blocks_per_multiprocessor;
  prop.reservedSharedMemPerBlock = p.reserved_shared_memory_per_block;
  prop.hostRegisterSupported = 1;
  prop.memoryPoolsSupported = 1;
  prop.clusterLaunch = 1;
  return prop;
}

// The attribute's value read off the properties record, so that both answer alike.
bool attribute(const cudaDeviceProp& p, cudaDeviceAttr attr, int* value) {
  switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock: *value = p.maxThreadsPerBlock; return true;
    case cudaDevAttrMaxBlockDimX: *value = p.maxThreadsDim[0]; return true;
    case cudaDevAttrMaxBlockDimY: *value = p.maxThreadsDim[1]; return true;
    case cudaDevAttrMaxBlockDimZ: *value = p.maxThreadsDim[2]; return true;
    case cudaDevAttrMaxGridDimX: *value = p.maxGridSize[0]; return true;
    case cudaDevAttrMaxGridDimY: *value = p.maxGridSize[1]; return true;
    case cudaDevAttrMaxGridDimZ: *value = p.maxGridSize[2]; return true;
    case cudaDevAttrMaxSharedMemoryPerBlock: *value = static_cast<int>(p.sharedMemPerBlock); return true;
    case cudaDevAttrTotalConstantMemory: *value = static_cast<int>(p.totalConstMem); return true;
    case cudaDevAttrWarpSize: *value = p.warpSize; return true;
    case cudaDevAttrMaxPitch: *value = static_cast<int>(p.memPitch); return true;
    case cudaDevAttrMaxRegistersPerBlock: *value = p.regsPerBlock; return true;
    case cudaDevAttrClockRate: *value = p.clockRate; return true;
    case cudaDevAttrTextureAlignment: *value = static_cast<int>(p.textureAlignment); return true;
    case cudaDevAttrGpuOverlap: *value = p.deviceOverlap; return true;
    case cudaDevAttrMultiProcessorCount: *value = p.multiProcessorCount; return true;
    case cudaDevAttrKernelExecTimeout: *value = p.kernelExecTimeoutEnabled; return true;
    case cudaDevAttrIntegrated: *value = p.integrated; return true;
    case cudaDevAttrCanMapHostMemory: *value = p.canMapHostMemory; return true;
    case cudaDevAttrComputeMode: *value = p.computeMode; return true;
    case cudaDevAttrConcurrentKernels: *value = p.concurrentKernels; return true;
    case cudaDevAttrEccEnabled: *value = p.ECCEnabled; return true;
    case cudaDevAttrPciBusId: *value = p.pciBusID; return true;
    case cudaDevAttrPciDeviceId: *value = p.pciDeviceID; return true;
    case cudaDevAttrMemoryClockRate: *value = p.memoryClockRate; return true;
    case cudaDevAttrGlobalMemoryBusWidth: *value = p.memoryBusWidth; return true;
    case cudaDevAttrL2CacheSize: *value = p.l2CacheSize; return true;
    case cudaDevAttrMaxThreadsPerMultiProcessor: *value = p.maxThreadsPerMultiProcessor; return true;
    case cudaDevAttrAsyncEngineCount: *value = p.asyncEngineCount; return true;
    case cudaDevAttrUnifiedAddressing: *value = p.unifiedAddressing; return true;
    case cudaDevAttrComputeCapabilityMajor: *value = p.major; return true;
    case cudaDevAttrComputeCapabilityMinor: *value = p.minor; return true;
    case cudaDevAttrStreamPrioritiesSupported: *value = p.streamPrioritiesSupported; return true;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor: *value = static_cast<int>(p.sharedMemPerMultiprocessor); return true;
    case cudaDevAttrMaxRegistersPerMultiprocessor: *value = p.regsPerMultiprocessor; return true;
    case cudaDevAttrManagedMemory: *value = p.managedMemory; return true;
    case cudaDevAttrHostNativeAtomicSupported: *value = p.hostNativeAtomicSupported; return true;
    case cudaDevAttrPageableMemoryAccess: *value = p.pageableMemoryAccess; return true;
    case cudaDevAttrConcurrentManagedAccess: *value = p.concurrentManagedAccess; return true;
    case cudaDevAttrCooperativeLaunch: *value = p.cooperativeLaunch; return true;
    case cudaDevAttrCooperativeMultiDeviceLaunch: *value = 0; return true;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: *value = static_cast<int>(p.sharedMemPerBlockOptin); return true;
    case cudaDevAttrMaxBlocksPerMultiprocessor: *value = p.maxBlocksPerMultiProcessor; return true;
    case cudaDevAttrReservedSharedMemoryPerBlock: *value = static_cast<int>(p.reservedSharedMemPerBlock); return true;
    case cudaDevAttrMemoryPoolsSupported: *value = p.memoryPoolsSupported; return true;
    case cudaDevAttrClusterLaunch: *value = p.clusterLaunch; return true;
  }
  return false;
}

std::mutex limits_mutex;
// Stack (what CUDA reports by default; cudaDeviceSetLimit refuses to change it), printf FIFO, malloc heap.
size_t limit_values[3] = {1024, 1 << 20, 8 << 20};
unsigned device_flags = 0;

}  // namespace

std::string no_such_device(const std::string& call, int device) {
  const int count = cohort::device_count();
  return call + ": device " + std::to_string(device) + " does not exist; the host backend has " +
         std::to_string(count) + " device(s), 0.." + std::to_string(count - 1) + " (COHORT_DEVICE_COUNT sets how many)";
}

}  // namespace cohort::compat::detail

using namespace cohort::compat::detail;

cudaError_t cudaGetDeviceCount(int* count) {
  if (count == nullptr) return fail(cudaErrorInvalidValue, "cudaGetDeviceCount: null count");
  *count = cohort::device_count();
  return cudaSuccess;
}

cudaError_t cudaGetDevice(int* device) {
  if (device == nullptr) return fail(cudaErrorInvalidValue, "cudaGetDevice: null device");
  *device = cohort::get_device();
  return cudaSuccess;
}

cudaError_t cudaSetDevice(int device) {
  if (const cudaError_t e = sticky()) return e;
  if (const cudaError_t e = check_device("cudaSetDevice", device)) return e;
  cohort::set_device(device);
  return cudaSuccess;
}

cudaError_t cudaChooseDevice(int* device, const cudaDeviceProp*) { return cudaGetDevice(device); }

cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device) {
  if (prop == nullptr) return fail(cudaErrorInvalidValue, "cudaGetDeviceProperties: null prop");
  if (const cudaError_t e = check_device("cudaGetDeviceProperties", device)) return e;
  *prop = properties();
  return cudaSuccess;
}

cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device) {
  if (value == nullptr) return fail(cudaErrorInvalidValue, "cudaDeviceGetAttribute: null value");
  if (const cudaError_t e = check_device("cudaDeviceGetAttribute", device)) return e;
  if (!attribute(properties(), attr, value))
    return fail(cudaErrorInvalidValue, "cudaDeviceGetAttribute: attribute " + std::to_string(static_cast<int>(attr)) +
                                           " is not supported on the host backend (docs/cuda-compat.md lists them)");
  return cudaSuccess;
}

// Launches and copies have completed when they return: nothing to wait for.
cudaError_t cudaDeviceSynchronize() { return sticky(); }

cudaError_t cudaDeviceReset() {
  release_device_regions();
  clear_errors();
  return cudaSuccess;
}

cudaError_t cudaSetDeviceFlags(unsigned int flags) {
  if (const cudaError_t e = sticky()) return e;
  std::lock_guard lock(limits_mutex);
  device_flags = flags;
  return cudaSuccess;
}

cudaError_t cudaGetDeviceFlags(unsigned int* flags) {
  if (flags == nullptr) return fail(cudaErrorInvalidValue, "cudaGetDeviceFlags: null flags");
  std::lock_guard lock(limits_mutex);
  *flags = device_flags;
  return cudaSuccess;
}

cudaError_t cudaDeviceSetLimit(cudaLimit limit, size_t value) {
  if (const cudaError_t e = sticky()) return e;
  if (limit < cudaLimitStackSize || limit > cudaLimitMallocHeapSize)
    return fail(cudaErrorNotSupported, "cudaDeviceSetLimit: limit " + std::to_string(static_cast<int>(limit)) +
                                           " is not supported on the host backend");
  // A kernel thread's stack is its fiber's, whose size the host backend reads
  // once from the environment and keeps for every launch: a size it already
  // has is granted (the usual request, a few KiB for a GPU thread's
  // recursion, is far below its default), a larger one only the environment can give.
  if (limit == cudaLimitStackSize) {
    std::size_t fiber_stack = 0;
    try {
      fiber_stack = cohort::host::kernel_thread_stack_bytes();
    } catch (const cohort::error& e) {  // a bad COHORT_STACK_SIZE
      return fail(e, "cudaDeviceSetLimit");
    }
    if (value > fiber_stack)
      return fail(cudaErrorUnsupportedLimit,
                  "cudaDeviceSetLimit(cudaLimitStackSize, " + std::to_string(value) +
                      "): the host backend's kernel threads have " + std::to_string(fiber_stack) +
                      " bytes of stack each, sized from the environment once, not from the program: start the program "
                      "with COHORT_STACK_SIZE at " +
                      std::to_string(value) + " bytes or more (a K/M/G suffix allowed; default 128K, at least 16K)");
  }
  std::lock_guard lock(limits_mutex);
  limit_values[limit] = value;
  return cudaSuccess;
}

cudaError_t cudaDeviceGetLimit(size_t* value, cudaLimit limit) {
  if (value == nullptr || limit < cudaLimitStackSize || limit > cudaLimitMallocHeapSize)
    return fail(cudaErrorInvalidValue, "cudaDeviceGetLimit: null value or unsupported limit");
  std::lock_guard lock(limits_mutex);
  *value = limit_values[limit];
  return cudaSuccess;
}

cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache) { return sticky(); }
// A CPU has no split of L1 and shared memory to prefer: the answer is CUDA's default.
cudaError_t cudaDeviceGetCacheConfig(cudaFuncCache* config) {
  if (config == nullptr) return fail(cudaErrorInvalidValue, "cudaDeviceGetCacheConfig: null config");
  *config = cudaFuncCachePreferNone;
  return sticky();
}

cudaError_t cudaDeviceGetStreamPriorityRange(int* leastPriority, int* greatestPriority) {
  if (leastPriority != nullptr) *leastPriority = 0;
  if (greatestPriority != nullptr) *greatestPriority = -5;
  return cudaSuccess;
}

cudaError_t cudaDeviceCanAccessPeer(int* canAccessPeer, int device, int peerDevice) {
  if (canAccessPeer == nullptr) return fail(cudaErrorInvalidValue, "cudaDeviceCanAccessPeer: null result");
  if (const cudaError_t e = check_device("cudaDeviceCanAccessPeer", device)) return e;
  if (const cudaError_t e = check_device("cudaDeviceCanAccessPeer", peerDevice)) return e;
  *canAccessPeer = device != peerDevice ? 1 : 0;  // CUDA answers 0 for a device and itself
  return cudaSuccess;
}

cudaError_t cudaDeviceEnablePeerAccess(int peerDevice, unsigned int flags) {
  if (const cudaError_t e = sticky()) return e;
  if (const cudaError_t e = check_device("cudaDeviceEnablePeerAccess", peerDevice)) return e;
  if (flags != 0) return fail(cudaErrorInvalidValue, "cudaDeviceEnablePeerAccess: flags must be 0");
  const int device = cohort::get_device();
  if (peerDevice == device)
    return fail(cudaErrorInvalidDevice, "cudaDeviceEnablePeerAccess: device " + std::to_string(device) +
                                            " is the current device; a device reaches its own memory already");
  std::lock_guard lock(peers_mutex);
  if (!enabled_peers.insert({device, peerDevice}).second)
    return fail(cudaErrorPeerAccessAlreadyEnabled, "cudaDeviceEnablePeerAccess: device " + std::to_string(device) +
                                                       "'s access to device " + std::to_string(peerDevice) +
                                                       " is already enabled");
  return cudaSuccess;
}

cudaError_t cudaDeviceDisablePeerAccess(int peerDevice) {
  if (const cudaError_t e = sticky()) return e;
  if (const cudaError_t e = check_device("cudaDeviceDisablePeerAccess", peerDevice)) return e;
  const int device = cohort::get_device();
  std::lock_guard lock(peers_mutex);
  if (enabled_peers.erase({device, peerDevice}) == 0)
    return fail(cudaErrorPeerAccessNotEnabled, "cudaDeviceDisablePeerAccess: device " + std::to_string(device) +
                                                   "'s access to device " + std::to_string(peerDevice) +
                                                   " was not enabled");
  return cudaSuccess;
}

cudaError_t cudaDriverGetVersion(int* version) {
  if (version == nullptr) return fail(cudaErrorInvalidValue, "cudaDriverGetVersion: null version");
  *version = CUDART_VERSION;
  return cudaSuccess;
}

cudaError_t cudaRuntimeGetVersion(int* version) { return cudaDriverGetVersion(version); }
