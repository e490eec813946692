// CUDA's per-thread names for the device calls, from before CUDA 4 made a
// context per device: deprecated since, still in CUDA 12's runtime, and still
// called by academic benchmark suites and textbooks. Each is the device call
// of the same meaning, as in CUDA.
#include "runtime_state.hpp"

cudaError_t cudaThreadSynchronize() { return cudaDeviceSynchronize(); }
cudaError_t cudaThreadExit() { return cudaDeviceReset(); }
cudaError_t cudaThreadSetLimit(cudaLimit limit, size_t value) { return cudaDeviceSetLimit(limit, value); }
cudaError_t cudaThreadGetLimit(size_t* value, cudaLimit limit) { return cudaDeviceGetLimit(value, limit); }
cudaError_t cudaThreadSetCacheConfig(cudaFuncCache cacheConfig) { return cudaDeviceSetCacheConfig(cacheConfig); }
cudaError_t cudaThreadGetCacheConfig(cudaFuncCache* cacheConfig) { return cudaDeviceGetCacheConfig(cacheConfig); }
