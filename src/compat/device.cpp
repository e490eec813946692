// Device management on the host backend: cohort's virtual devices
// (COHORT_DEVICE_COUNT, each with its own memory), reported as compute
// capability 9.0 (what the virtual device mirrors, and what makes
// `major >= 7` / `__CUDA_ARCH__ >= 700` guards take their real path). Every
// device is a peer of every other; peer access is bookkeeping (a kernel's
// access to another device's memory is not checked: docs/outer-levels.md).
#include <unistd.h>
#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <map>
#include <mutex>
#include <set>
#include <utility>

#include "l2_residency.hpp"
#include "runtime_state.hpp"
#include "stream_order.hpp"

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

// An sm_90 GPU's texture and surface limits (an H200's deviceQuery): the host's
// textures read any extent, and report what the program would meet on the GPU.
void texture_limits(cudaDeviceProp& prop) {
  prop.maxTexture1D = 131072;
  prop.maxTexture1DMipmap = 32768;
  prop.maxTexture1DLinear = 268435456;
  prop.maxTexture2D[0] = 131072, prop.maxTexture2D[1] = 65536;
  prop.maxTexture2DMipmap[0] = prop.maxTexture2DMipmap[1] = 32768;
  prop.maxTexture2DLinear[0] = 131072, prop.maxTexture2DLinear[1] = 65000, prop.maxTexture2DLinear[2] = 2097120;
  prop.maxTexture2DGather[0] = prop.maxTexture2DGather[1] = 32768;
  prop.maxTexture3D[0] = prop.maxTexture3D[1] = prop.maxTexture3D[2] = 16384;
  prop.maxTexture3DAlt[0] = prop.maxTexture3DAlt[1] = 8192, prop.maxTexture3DAlt[2] = 32768;
  prop.maxTextureCubemap = 32768;
  prop.maxTexture1DLayered[0] = 32768, prop.maxTexture1DLayered[1] = 2048;
  prop.maxTexture2DLayered[0] = prop.maxTexture2DLayered[1] = 32768, prop.maxTexture2DLayered[2] = 2048;
  prop.maxTextureCubemapLayered[0] = 32768, prop.maxTextureCubemapLayered[1] = 2046;
  prop.maxSurface1D = 32768;
  prop.maxSurface2D[0] = 131072, prop.maxSurface2D[1] = 65536;
  prop.maxSurface3D[0] = prop.maxSurface3D[1] = prop.maxSurface3D[2] = 16384;
  prop.maxSurface1DLayered[0] = 32768, prop.maxSurface1DLayered[1] = 2048;
  prop.maxSurface2DLayered[0] = prop.maxSurface2DLayered[1] = 32768, prop.maxSurface2DLayered[2] = 2048;
  prop.maxSurfaceCubemap = 32768;
  prop.maxSurfaceCubemapLayered[0] = 32768, prop.maxSurfaceCubemapLayered[1] = 2046;
  prop.surfaceAlignment = 512;
}

cudaDeviceProp properties(int device) {
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
  texture_limits(prop);
  prop.concurrentKernels = 1;
  prop.pciBusID = device;  // one virtual device per bus (cudaDeviceGetPCIBusId)
  prop.asyncEngineCount = 1;
  prop.unifiedAddressing = 1;
  prop.memoryClockRate = 1000000;
  prop.memoryBusWidth = 64;
  const long l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
  prop.l2CacheSize = l2 > 0 ? static_cast<int>(l2) : 0;
  prop.persistingL2CacheMaxSize = persisting_l2_max(prop.l2CacheSize);
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
  prop.accessPolicyMaxWindowSize = access_policy_max_window;
  prop.reservedSharedMemPerBlock = p.reserved_shared_memory_per_block;
  prop.hostRegisterSupported = 1;
  prop.memoryPoolsSupported = 1;
  prop.clusterLaunch = 1;
  return prop;
}

// The attribute's value read off the properties record, so that both answer alike.
bool attribute(const cudaDeviceProp& p, cudaDeviceAttr attr, int* value) {
  switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock:
      *value = p.maxThreadsPerBlock;
      return true;
    case cudaDevAttrMaxBlockDimX:
      *value = p.maxThreadsDim[0];
      return true;
    case cudaDevAttrMaxBlockDimY:
      *value = p.maxThreadsDim[1];
      return true;
    case cudaDevAttrMaxBlockDimZ:
      *value = p.maxThreadsDim[2];
      return true;
    case cudaDevAttrMaxGridDimX:
      *value = p.maxGridSize[0];
      return true;
    case cudaDevAttrMaxGridDimY:
      *value = p.maxGridSize[1];
      return true;
    case cudaDevAttrMaxGridDimZ:
      *value = p.maxGridSize[2];
      return true;
    case cudaDevAttrMaxSharedMemoryPerBlock:
      *value = static_cast<int>(p.sharedMemPerBlock);
      return true;
    case cudaDevAttrTotalConstantMemory:
      *value = static_cast<int>(p.totalConstMem);
      return true;
    case cudaDevAttrWarpSize:
      *value = p.warpSize;
      return true;
    case cudaDevAttrMaxPitch:
      *value = static_cast<int>(p.memPitch);
      return true;
    case cudaDevAttrMaxRegistersPerBlock:
      *value = p.regsPerBlock;
      return true;
    case cudaDevAttrClockRate:
      *value = p.clockRate;
      return true;
    case cudaDevAttrTextureAlignment:
      *value = static_cast<int>(p.textureAlignment);
      return true;
    case cudaDevAttrGpuOverlap:
      *value = p.deviceOverlap;
      return true;
    case cudaDevAttrMultiProcessorCount:
      *value = p.multiProcessorCount;
      return true;
    case cudaDevAttrKernelExecTimeout:
      *value = p.kernelExecTimeoutEnabled;
      return true;
    case cudaDevAttrIntegrated:
      *value = p.integrated;
      return true;
    case cudaDevAttrCanMapHostMemory:
      *value = p.canMapHostMemory;
      return true;
    case cudaDevAttrComputeMode:
      *value = p.computeMode;
      return true;
    case cudaDevAttrMaxTexture1DWidth:
      *value = p.maxTexture1D;
      return true;
    case cudaDevAttrMaxTexture2DWidth:
      *value = p.maxTexture2D[0];
      return true;
    case cudaDevAttrMaxTexture2DHeight:
      *value = p.maxTexture2D[1];
      return true;
    case cudaDevAttrMaxTexture3DWidth:
      *value = p.maxTexture3D[0];
      return true;
    case cudaDevAttrMaxTexture3DHeight:
      *value = p.maxTexture3D[1];
      return true;
    case cudaDevAttrMaxTexture3DDepth:
      *value = p.maxTexture3D[2];
      return true;
    case cudaDevAttrMaxTexture2DLayeredWidth:
      *value = p.maxTexture2DLayered[0];
      return true;
    case cudaDevAttrMaxTexture2DLayeredHeight:
      *value = p.maxTexture2DLayered[1];
      return true;
    case cudaDevAttrMaxTexture2DLayeredLayers:
      *value = p.maxTexture2DLayered[2];
      return true;
    case cudaDevAttrSurfaceAlignment:
      *value = static_cast<int>(p.surfaceAlignment);
      return true;
    case cudaDevAttrConcurrentKernels:
      *value = p.concurrentKernels;
      return true;
    case cudaDevAttrEccEnabled:
      *value = p.ECCEnabled;
      return true;
    case cudaDevAttrPciBusId:
      *value = p.pciBusID;
      return true;
    case cudaDevAttrPciDeviceId:
      *value = p.pciDeviceID;
      return true;
    case cudaDevAttrTccDriver:
      *value = p.tccDriver;
      return true;
    case cudaDevAttrMemoryClockRate:
      *value = p.memoryClockRate;
      return true;
    case cudaDevAttrGlobalMemoryBusWidth:
      *value = p.memoryBusWidth;
      return true;
    case cudaDevAttrL2CacheSize:
      *value = p.l2CacheSize;
      return true;
    case cudaDevAttrMaxThreadsPerMultiProcessor:
      *value = p.maxThreadsPerMultiProcessor;
      return true;
    case cudaDevAttrAsyncEngineCount:
      *value = p.asyncEngineCount;
      return true;
    case cudaDevAttrUnifiedAddressing:
      *value = p.unifiedAddressing;
      return true;
    case cudaDevAttrMaxTexture1DLayeredWidth:
      *value = p.maxTexture1DLayered[0];
      return true;
    case cudaDevAttrMaxTexture1DLayeredLayers:
      *value = p.maxTexture1DLayered[1];
      return true;
    case cudaDevAttrMaxTexture2DGatherWidth:
      *value = p.maxTexture2DGather[0];
      return true;
    case cudaDevAttrMaxTexture2DGatherHeight:
      *value = p.maxTexture2DGather[1];
      return true;
    case cudaDevAttrMaxTexture3DWidthAlt:
      *value = p.maxTexture3DAlt[0];
      return true;
    case cudaDevAttrMaxTexture3DHeightAlt:
      *value = p.maxTexture3DAlt[1];
      return true;
    case cudaDevAttrMaxTexture3DDepthAlt:
      *value = p.maxTexture3DAlt[2];
      return true;
    case cudaDevAttrPciDomainId:
      *value = p.pciDomainID;
      return true;
    case cudaDevAttrTexturePitchAlignment:
      *value = static_cast<int>(p.texturePitchAlignment);
      return true;
    case cudaDevAttrMaxTextureCubemapWidth:
      *value = p.maxTextureCubemap;
      return true;
    case cudaDevAttrMaxTextureCubemapLayeredWidth:
      *value = p.maxTextureCubemapLayered[0];
      return true;
    case cudaDevAttrMaxTextureCubemapLayeredLayers:
      *value = p.maxTextureCubemapLayered[1];
      return true;
    case cudaDevAttrMaxSurface1DWidth:
      *value = p.maxSurface1D;
      return true;
    case cudaDevAttrMaxSurface2DWidth:
      *value = p.maxSurface2D[0];
      return true;
    case cudaDevAttrMaxSurface2DHeight:
      *value = p.maxSurface2D[1];
      return true;
    case cudaDevAttrMaxSurface3DWidth:
      *value = p.maxSurface3D[0];
      return true;
    case cudaDevAttrMaxSurface3DHeight:
      *value = p.maxSurface3D[1];
      return true;
    case cudaDevAttrMaxSurface3DDepth:
      *value = p.maxSurface3D[2];
      return true;
    case cudaDevAttrMaxSurface1DLayeredWidth:
      *value = p.maxSurface1DLayered[0];
      return true;
    case cudaDevAttrMaxSurface1DLayeredLayers:
      *value = p.maxSurface1DLayered[1];
      return true;
    case cudaDevAttrMaxSurface2DLayeredWidth:
      *value = p.maxSurface2DLayered[0];
      return true;
    case cudaDevAttrMaxSurface2DLayeredHeight:
      *value = p.maxSurface2DLayered[1];
      return true;
    case cudaDevAttrMaxSurface2DLayeredLayers:
      *value = p.maxSurface2DLayered[2];
      return true;
    case cudaDevAttrMaxSurfaceCubemapWidth:
      *value = p.maxSurfaceCubemap;
      return true;
    case cudaDevAttrMaxSurfaceCubemapLayeredWidth:
      *value = p.maxSurfaceCubemapLayered[0];
      return true;
    case cudaDevAttrMaxSurfaceCubemapLayeredLayers:
      *value = p.maxSurfaceCubemapLayered[1];
      return true;
    case cudaDevAttrMaxTexture1DLinearWidth:
      *value = p.maxTexture1DLinear;
      return true;
    case cudaDevAttrMaxTexture2DLinearWidth:
      *value = p.maxTexture2DLinear[0];
      return true;
    case cudaDevAttrMaxTexture2DLinearHeight:
      *value = p.maxTexture2DLinear[1];
      return true;
    case cudaDevAttrMaxTexture2DLinearPitch:
      *value = p.maxTexture2DLinear[2];
      return true;
    case cudaDevAttrMaxTexture2DMipmappedWidth:
      *value = p.maxTexture2DMipmap[0];
      return true;
    case cudaDevAttrMaxTexture2DMipmappedHeight:
      *value = p.maxTexture2DMipmap[1];
      return true;
    case cudaDevAttrMaxTexture1DMipmappedWidth:
      *value = p.maxTexture1DMipmap;
      return true;
    case cudaDevAttrComputeCapabilityMajor:
      *value = p.major;
      return true;
    case cudaDevAttrComputeCapabilityMinor:
      *value = p.minor;
      return true;
    case cudaDevAttrStreamPrioritiesSupported:
      *value = p.streamPrioritiesSupported;
      return true;
    case cudaDevAttrGlobalL1CacheSupported:
      *value = p.globalL1CacheSupported;
      return true;
    case cudaDevAttrLocalL1CacheSupported:
      *value = p.localL1CacheSupported;
      return true;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor:
      *value = static_cast<int>(p.sharedMemPerMultiprocessor);
      return true;
    case cudaDevAttrMaxRegistersPerMultiprocessor:
      *value = p.regsPerMultiprocessor;
      return true;
    case cudaDevAttrManagedMemory:
      *value = p.managedMemory;
      return true;
    case cudaDevAttrIsMultiGpuBoard:
      *value = p.isMultiGpuBoard;
      return true;
    case cudaDevAttrMultiGpuBoardGroupID:
      *value = p.multiGpuBoardGroupID;
      return true;
    case cudaDevAttrHostNativeAtomicSupported:
      *value = p.hostNativeAtomicSupported;
      return true;
    case cudaDevAttrPageableMemoryAccess:
      *value = p.pageableMemoryAccess;
      return true;
    case cudaDevAttrConcurrentManagedAccess:
      *value = p.concurrentManagedAccess;
      return true;
    case cudaDevAttrComputePreemptionSupported:
      *value = p.computePreemptionSupported;
      return true;
    case cudaDevAttrCanUseHostPointerForRegisteredMem:
      *value = p.canUseHostPointerForRegisteredMem;
      return true;
    case cudaDevAttrCooperativeLaunch:
      *value = p.cooperativeLaunch;
      return true;
    case cudaDevAttrCooperativeMultiDeviceLaunch:
      *value = 0;
      return true;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin:
      *value = static_cast<int>(p.sharedMemPerBlockOptin);
      return true;
    case cudaDevAttrPageableMemoryAccessUsesHostPageTables:
      *value = p.pageableMemoryAccessUsesHostPageTables;
      return true;
    case cudaDevAttrDirectManagedMemAccessFromHost:
      *value = p.directManagedMemAccessFromHost;
      return true;
    case cudaDevAttrMaxBlocksPerMultiprocessor:
      *value = p.maxBlocksPerMultiProcessor;
      return true;
    case cudaDevAttrMaxPersistingL2CacheSize:
      *value = p.persistingL2CacheMaxSize;
      return true;
    case cudaDevAttrMaxAccessPolicyWindowSize:
      *value = p.accessPolicyMaxWindowSize;
      return true;
    case cudaDevAttrReservedSharedMemoryPerBlock:
      *value = static_cast<int>(p.reservedSharedMemPerBlock);
      return true;
    case cudaDevAttrMemoryPoolsSupported:
      *value = p.memoryPoolsSupported;
      return true;
    case cudaDevAttrClusterLaunch:
      *value = p.clusterLaunch;
      return true;
  }
  return false;
}

std::mutex limits_mutex;
// Every cudaLimit's default, by its number: the stack (what CUDA reports by
// default; cudaDeviceSetLimit refuses to grow it), the printf FIFO, the malloc
// heap, dynamic parallelism's two (unsupported), the L2 fetch granularity (the
// host's cache line) and the persisting L2 set-aside (none until asked).
using limit_table = std::array<size_t, cudaLimitPersistingL2CacheSize + 1>;
constexpr limit_table default_limits = {1024, 1 << 20, 8 << 20, 0, 0, 64, 0};
// Each device's limits, once a program sets or reads one; cudaDeviceReset
// gives the device back its defaults, as CUDA does.
std::map<int, limit_table> device_limits;
limit_table& limits_of(int device) { return device_limits.try_emplace(device, default_limits).first->second; }
unsigned device_flags = 0;
cudaSharedMemConfig shared_memory_config = cudaSharedMemBankSizeFourByte;

// Refuses a limit the host backend does not have, naming `call`.
cudaError_t check_limit(const char* call, cudaLimit limit) {
  if (limit == cudaLimitDevRuntimeSyncDepth || limit == cudaLimitDevRuntimePendingLaunchCount)
    return fail(cudaErrorUnsupportedLimit, std::string(call) + ": limit " + std::to_string(static_cast<int>(limit)) +
                                               " is a limit of dynamic parallelism (launches from kernels), which the "
                                               "host backend does not have");
  if (limit < cudaLimitStackSize || limit > cudaLimitPersistingL2CacheSize)
    return fail(cudaErrorUnsupportedLimit,
                std::string(call) + ": limit " + std::to_string(static_cast<int>(limit)) + " is not a cudaLimit");
  return cudaSuccess;
}

// A kernel thread's stack is its fiber's, whose size the host backend reads
// once from the environment and keeps for every launch: a size it already
// has is granted (the usual request, a few KiB for a GPU thread's
// recursion, is far below its default), a larger one only the environment can give.
cudaError_t check_stack_size(size_t value) {
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
  return cudaSuccess;
}

// The L2 limits are hints, checked as CUDA checks them.
cudaError_t check_l2_limit(cudaLimit limit, size_t value) {
  if (limit == cudaLimitMaxL2FetchGranularity && value > 128)
    return fail(cudaErrorInvalidValue, "cudaDeviceSetLimit(cudaLimitMaxL2FetchGranularity, " + std::to_string(value) +
                                           "): the granularity is between 0 and 128 bytes");
  if (limit == cudaLimitPersistingL2CacheSize) {
    const int most = properties(cohort::get_device()).persistingL2CacheMaxSize;
    if (most == 0)
      return fail(cudaErrorUnsupportedLimit,
                  "cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize): this host's L2 size "
                  "is unknown, so the device has no persisting L2 "
                  "(cudaDeviceProp::persistingL2CacheMaxSize is 0)");
    if (value > static_cast<size_t>(most))
      return fail(cudaErrorInvalidValue, "cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, " + std::to_string(value) +
                                             "): more than the " + std::to_string(most) +
                                             " bytes that may be set aside (cudaDeviceProp::persistingL2CacheMaxSize)");
  }
  return cudaSuccess;
}

// A device's PCI address, "domain:bus:device.function" in hex: the virtual
// device d is on bus d (cudaDeviceProp::pciBusID), domain 0, device 0.
std::string pci_bus_id(int device) {
  char text[16];
  std::snprintf(text, sizeof text, "%04x:%02x:%02x.0", 0, device, 0);
  return text;
}

// The device a PCI address names: CUDA's forms "domain:bus:device.function",
// "domain:bus:device" and "bus:device.function", hexadecimal. -1: malformed.
int device_of_pci_bus_id(const char* text) {
  unsigned domain = 0, bus = 0, slot = 0, function = 0;
  int used = 0;
  const std::size_t length = std::strlen(text);
  const bool parsed =
      (std::sscanf(text, "%x:%x:%x.%x%n", &domain, &bus, &slot, &function, &used) == 4 &&
       used == static_cast<int>(length)) ||
      (std::sscanf(text, "%x:%x:%x%n", &domain, &bus, &slot, &used) == 3 && used == static_cast<int>(length)) ||
      (domain = 0,
       std::sscanf(text, "%x:%x.%x%n", &bus, &slot, &function, &used) == 3 && used == static_cast<int>(length));
  if (!parsed) return -1;
  if (domain != 0 || slot != 0 || function != 0 || bus >= static_cast<unsigned>(cohort::device_count()))
    return cohort::device_count();  // well formed, no such device
  return static_cast<int>(bus);
}

// Every device reaches every other's memory, atomics included (one process's memory).
bool p2p_attribute(cudaDeviceP2PAttr attr, int* value) {
  switch (attr) {
    case cudaDevP2PAttrPerformanceRank:
      *value = 0;
      return true;
    case cudaDevP2PAttrAccessSupported:
    case cudaDevP2PAttrNativeAtomicSupported:
    case cudaDevP2PAttrCudaArrayAccessSupported:
      *value = 1;
      return true;
    case cudaDevP2PAttrOnlyPartialNativeAtomicSupported:
      *value = 0;
      return true;
  }
  return false;
}

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
  *prop = properties(device);
  return cudaSuccess;
}

cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device) {
  if (value == nullptr) return fail(cudaErrorInvalidValue, "cudaDeviceGetAttribute: null value");
  if (const cudaError_t e = check_device("cudaDeviceGetAttribute", device)) return e;
  if (!attribute(properties(device), attr, value))
    return fail(cudaErrorInvalidValue, "cudaDeviceGetAttribute: attribute " + std::to_string(static_cast<int>(attr)) +
                                           " is not supported on the host backend (docs/cuda-compat.md lists them)");
  return cudaSuccess;
}

cudaError_t cudaDeviceSynchronize() {
  refuse_in_kernel("cudaDeviceSynchronize");
  if (const cudaError_t e = sticky()) return e;
  if (const cudaError_t e = synchronize_device(cohort::get_device())) return e;
  return sticky();  // a fault of the work it waited for
}

cudaError_t cudaDeviceReset() {
  refuse_in_kernel("cudaDeviceReset");
  drain_device(cohort::get_device());  // no work still running in the memory it frees
  release_device_arrays();
  release_device_regions();
  clear_errors();
  std::lock_guard lock(limits_mutex);
  device_limits.erase(cohort::get_device());
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
  if (const cudaError_t e = check_limit("cudaDeviceSetLimit", limit)) return e;
  if (limit == cudaLimitStackSize)
    if (const cudaError_t e = check_stack_size(value)) return e;
  if (const cudaError_t e = check_l2_limit(limit, value)) return e;
  std::lock_guard lock(limits_mutex);
  limits_of(cohort::get_device())[limit] = value;
  return cudaSuccess;
}

cudaError_t cudaDeviceGetLimit(size_t* value, cudaLimit limit) {
  if (value == nullptr) return fail(cudaErrorInvalidValue, "cudaDeviceGetLimit: null value");
  if (const cudaError_t e = check_limit("cudaDeviceGetLimit", limit)) return e;
  std::lock_guard lock(limits_mutex);
  *value = limits_of(cohort::get_device())[limit];
  return cudaSuccess;
}

// The set-aside stays; no line persists in a CPU's cache by a program's hint.
cudaError_t cudaCtxResetPersistingL2Cache() { return sticky(); }

cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache) { return sticky(); }
// A CPU has no split of L1 and shared memory to prefer: the answer is CUDA's default.
cudaError_t cudaDeviceGetCacheConfig(cudaFuncCache* config) {
  if (config == nullptr) return fail(cudaErrorInvalidValue, "cudaDeviceGetCacheConfig: null config");
  *config = cudaFuncCachePreferNone;
  return sticky();
}

cudaError_t cudaDeviceGetStreamPriorityRange(int* leastPriority, int* greatestPriority) {
  if (leastPriority != nullptr) *leastPriority = least_stream_priority;
  if (greatestPriority != nullptr) *greatestPriority = greatest_stream_priority;
  return cudaSuccess;
}

// Banks are a GPU's: the setting is kept and read back, and changes nothing.
cudaError_t cudaDeviceGetSharedMemConfig(cudaSharedMemConfig* pConfig) {
  if (pConfig == nullptr) return fail(cudaErrorInvalidValue, "cudaDeviceGetSharedMemConfig: null config");
  std::lock_guard lock(limits_mutex);
  *pConfig = shared_memory_config;
  return sticky();
}

cudaError_t cudaDeviceSetSharedMemConfig(cudaSharedMemConfig config) {
  if (const cudaError_t e = sticky()) return e;
  if (config < cudaSharedMemBankSizeDefault || config > cudaSharedMemBankSizeEightByte)
    return fail(cudaErrorInvalidValue, "cudaDeviceSetSharedMemConfig: " + std::to_string(static_cast<int>(config)) +
                                           " is not a cudaSharedMemConfig (0 to 2)");
  std::lock_guard lock(limits_mutex);
  shared_memory_config = config == cudaSharedMemBankSizeDefault ? cudaSharedMemBankSizeFourByte : config;
  return cudaSuccess;
}

cudaError_t cudaDeviceGetPCIBusId(char* pciBusId, int len, int device) {
  if (pciBusId == nullptr || len <= 0)
    return fail(cudaErrorInvalidValue, "cudaDeviceGetPCIBusId: a null buffer or a length of " + std::to_string(len) +
                                           "; pass a buffer of 13 characters or more");
  if (const cudaError_t e = check_device("cudaDeviceGetPCIBusId", device)) return e;
  std::snprintf(pciBusId, static_cast<std::size_t>(len), "%s", pci_bus_id(device).c_str());  // cut to len, as CUDA does
  return cudaSuccess;
}

cudaError_t cudaDeviceGetByPCIBusId(int* device, const char* pciBusId) {
  if (device == nullptr || pciBusId == nullptr)
    return fail(cudaErrorInvalidValue, "cudaDeviceGetByPCIBusId: a null device or bus id");
  const int found = device_of_pci_bus_id(pciBusId);
  if (found < 0)
    return fail(cudaErrorInvalidValue, std::string("cudaDeviceGetByPCIBusId: \"") + pciBusId +
                                           "\" is not a PCI address; write it domain:bus:device.function in hex, as "
                                           "cudaDeviceGetPCIBusId gives it (\"" +
                                           pci_bus_id(0) + "\")");
  if (found == cohort::device_count())
    return fail(cudaErrorInvalidDevice, std::string("cudaDeviceGetByPCIBusId: no device is at \"") + pciBusId +
                                            "\"; the host backend's devices are at " + pci_bus_id(0) + " to " +
                                            pci_bus_id(found - 1));
  *device = found;
  return cudaSuccess;
}

cudaError_t cudaDeviceGetP2PAttribute(int* value, cudaDeviceP2PAttr attr, int srcDevice, int dstDevice) {
  if (value == nullptr) return fail(cudaErrorInvalidValue, "cudaDeviceGetP2PAttribute: null value");
  if (const cudaError_t e = check_device("cudaDeviceGetP2PAttribute", srcDevice)) return e;
  if (const cudaError_t e = check_device("cudaDeviceGetP2PAttribute", dstDevice)) return e;
  int answer = 0;
  if (!p2p_attribute(attr, &answer))
    return fail(cudaErrorInvalidValue, "cudaDeviceGetP2PAttribute: " + std::to_string(static_cast<int>(attr)) +
                                           " is not a cudaDeviceP2PAttr (1 to 5)");
  if (srcDevice == dstDevice)
    return fail(cudaErrorInvalidDevice, "cudaDeviceGetP2PAttribute: source and destination are both device " +
                                            std::to_string(srcDevice) + "; a peer is another device");
  *value = answer;
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
