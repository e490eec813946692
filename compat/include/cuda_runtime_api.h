// The CUDA runtime API on cohort's host backend (library cohort::cudart):
// CUDA's names, error codes and sticky/non-sticky error semantics over
// cohort's virtual device. The typed C++ overloads (launches through kernel
// pointers, symbols, typed allocations) are in <cuda_runtime.h>.
#pragma once
#define __CUDA_RUNTIME_API_H__  // NVIDIA's include guard: programs test it

#include <stddef.h>

#include "driver_types.h"
#include "vector_functions.h"
#ifdef __cplusplus  // arrays, textures and graphs: from C++ only (overloads, default arguments)
#include "cohort_compat/array_texture_api.hpp"
#include "cohort_compat/graph_api.hpp"
#endif

// The runtime this layer mirrors: CUDA 12's API, with the functions listed in
// docs/cuda-compat.md.
#define CUDART_VERSION 12000

// C linkage, as libcudart's, so that C sources call the runtime too; default
// arguments for C++ only, as CUDA's __dv gives them.
#ifdef __cplusplus
#define COHORT_DEFAULT(value) = value
extern "C" {
#else
#define COHORT_DEFAULT(value)
#endif

cudaError_t cudaGetLastError();
cudaError_t cudaPeekAtLastError();
const char* cudaGetErrorString(cudaError_t error);
const char* cudaGetErrorName(cudaError_t error);

cudaError_t cudaGetDeviceCount(int* count);
cudaError_t cudaGetDevice(int* device);
cudaError_t cudaSetDevice(int device);
cudaError_t cudaChooseDevice(int* device, const cudaDeviceProp* prop);
cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device);
cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device);
cudaError_t cudaDeviceSynchronize();
// CUDA's deprecated per-thread names for the device calls (still in CUDA 12's runtime).
cudaError_t cudaThreadSynchronize();
cudaError_t cudaThreadExit();
cudaError_t cudaThreadSetLimit(cudaLimit limit, size_t value);
cudaError_t cudaThreadGetLimit(size_t* value, cudaLimit limit);
cudaError_t cudaThreadSetCacheConfig(cudaFuncCache cacheConfig);
cudaError_t cudaThreadGetCacheConfig(cudaFuncCache* cacheConfig);
cudaError_t cudaDeviceReset();
cudaError_t cudaSetDeviceFlags(unsigned int flags);
cudaError_t cudaGetDeviceFlags(unsigned int* flags);
cudaError_t cudaDeviceSetLimit(cudaLimit limit, size_t value);
cudaError_t cudaDeviceGetLimit(size_t* value, cudaLimit limit);
cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache config);
cudaError_t cudaDeviceGetCacheConfig(cudaFuncCache* config);
cudaError_t cudaDeviceGetStreamPriorityRange(int* leastPriority, int* greatestPriority);
cudaError_t cudaDeviceGetSharedMemConfig(cudaSharedMemConfig* pConfig);
cudaError_t cudaDeviceSetSharedMemConfig(cudaSharedMemConfig config);
// Device d is at PCI address 0000:d:00.0 (hexadecimal), cudaDeviceProp::pciBusID d.
cudaError_t cudaDeviceGetPCIBusId(char* pciBusId, int len, int device);
cudaError_t cudaDeviceGetByPCIBusId(int* device, const char* pciBusId);
cudaError_t cudaDeviceCanAccessPeer(int* canAccessPeer, int device, int peerDevice);
cudaError_t cudaDeviceGetP2PAttribute(int* value, cudaDeviceP2PAttr attr, int srcDevice, int dstDevice);
// L2 residency hints (cudaLimitPersistingL2CacheSize, access-policy windows):
// checked and recorded; a CPU's caches take no hints.
cudaError_t cudaCtxResetPersistingL2Cache();
cudaError_t cudaDeviceEnablePeerAccess(int peerDevice, unsigned int flags);
cudaError_t cudaDeviceDisablePeerAccess(int peerDevice);
cudaError_t cudaDriverGetVersion(int* version);
cudaError_t cudaRuntimeGetVersion(int* version);

cudaError_t cudaMalloc(void** devPtr, size_t size);
cudaError_t cudaMallocManaged(void** devPtr, size_t size, unsigned int flags COHORT_DEFAULT(cudaMemAttachGlobal));
cudaError_t cudaMallocHost(void** ptr, size_t size);
cudaError_t cudaHostAlloc(void** ptr, size_t size, unsigned int flags);
cudaError_t cudaFree(void* devPtr);
cudaError_t cudaFreeHost(void* ptr);
cudaError_t cudaHostRegister(void* ptr, size_t size, unsigned int flags);
cudaError_t cudaHostUnregister(void* ptr);
cudaError_t cudaHostGetDevicePointer(void** devPtr, void* hostPtr, unsigned int flags);
cudaError_t cudaMemGetInfo(size_t* free, size_t* total);
cudaError_t cudaPointerGetAttributes(cudaPointerAttributes* attributes, const void* ptr);
cudaError_t cudaMemcpy(void* dst, const void* src, size_t count, cudaMemcpyKind kind);
cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t count, cudaMemcpyKind kind,
                            cudaStream_t stream COHORT_DEFAULT(0));
cudaError_t cudaMemcpyPeer(void* dst, int dstDevice, const void* src, int srcDevice, size_t count);
cudaError_t cudaMemcpyPeerAsync(void* dst, int dstDevice, const void* src, int srcDevice, size_t count,
                                cudaStream_t stream COHORT_DEFAULT(0));
cudaError_t cudaMallocPitch(void** devPtr, size_t* pitch, size_t width, size_t height);
cudaError_t cudaMemcpy2D(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                         cudaMemcpyKind kind);
cudaError_t cudaMemcpy2DAsync(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                              cudaMemcpyKind kind, cudaStream_t stream COHORT_DEFAULT(0));
cudaError_t cudaMemset2D(void* devPtr, size_t pitch, int value, size_t width, size_t height);
cudaError_t cudaMemset2DAsync(void* devPtr, size_t pitch, int value, size_t width, size_t height,
                              cudaStream_t stream COHORT_DEFAULT(0));
cudaError_t cudaMallocAsync(void** devPtr, size_t size, cudaStream_t stream);
cudaError_t cudaFreeAsync(void* devPtr, cudaStream_t stream);
cudaError_t cudaMemset(void* devPtr, int value, size_t count);
cudaError_t cudaMemsetAsync(void* devPtr, int value, size_t count, cudaStream_t stream COHORT_DEFAULT(0));
// Unified memory's hints: kernels run on the CPU, so they move nothing, but
// they are checked as CUDA checks them. CUDA 13's forms (a cudaMemLocation),
// and CUDA 12's (a device number, or cudaCpuDeviceId for the host), which
// unified-memory tutorials use.
cudaError_t cudaMemPrefetchAsync(const void* devPtr, size_t count, cudaMemLocation location, unsigned int flags,
                                 cudaStream_t stream COHORT_DEFAULT(0));
cudaError_t cudaMemAdvise(const void* devPtr, size_t count, cudaMemoryAdvise advice, cudaMemLocation location);
// The advice and the last prefetch location, as the calls above recorded them.
cudaError_t cudaMemRangeGetAttribute(void* data, size_t dataSize, cudaMemRangeAttribute attribute, const void* devPtr,
                                     size_t count);
cudaError_t cudaMemRangeGetAttributes(void** data, size_t* dataSizes, cudaMemRangeAttribute* attributes,
                                      size_t numAttributes, const void* devPtr, size_t count);
cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, void* devPtr, size_t length COHORT_DEFAULT(0),
                                     unsigned int flags COHORT_DEFAULT(cudaMemAttachSingle));

cudaError_t cudaStreamCreate(cudaStream_t* stream);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned int flags);
cudaError_t cudaStreamCreateWithPriority(cudaStream_t* stream, unsigned int flags, int priority);
cudaError_t cudaStreamDestroy(cudaStream_t stream);
cudaError_t cudaStreamGetPriority(cudaStream_t hStream, int* priority);
cudaError_t cudaStreamGetFlags(cudaStream_t hStream, unsigned int* flags);
cudaError_t cudaStreamGetDevice(cudaStream_t hStream, int* device);
// A stream's access-policy window, synchronization policy and priority.
cudaError_t cudaStreamSetAttribute(cudaStream_t hStream, cudaStreamAttrID attr, const cudaStreamAttrValue* value);
cudaError_t cudaStreamGetAttribute(cudaStream_t hStream, cudaStreamAttrID attr, cudaStreamAttrValue* value_out);
cudaError_t cudaStreamSynchronize(cudaStream_t stream);
cudaError_t cudaStreamQuery(cudaStream_t stream);
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags COHORT_DEFAULT(0));
cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback, void* userData,
                                  unsigned int flags);
cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void* userData);

cudaError_t cudaEventCreate(cudaEvent_t* event);
cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned int flags);
cudaError_t cudaEventDestroy(cudaEvent_t event);
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream COHORT_DEFAULT(0));
cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream COHORT_DEFAULT(0),
                                     unsigned int flags COHORT_DEFAULT(0));
cudaError_t cudaEventSynchronize(cudaEvent_t event);
cudaError_t cudaEventQuery(cudaEvent_t event);
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end);

// Through a kernel's address: the kernel must be known to the runtime, which
// it is when it was compiled by cohort-cxx (every __global__ function that is
// not a template registers itself) or was used through its typed pointer
// before (see cuda_runtime.h); otherwise cudaErrorInvalidDeviceFunction.
cudaError_t cudaLaunchKernel(const void* func, dim3 grid, dim3 block, void** args, size_t sharedMem COHORT_DEFAULT(0),
                             cudaStream_t stream COHORT_DEFAULT(0));
cudaError_t cudaLaunchCooperativeKernel(const void* func, dim3 grid, dim3 block, void** args,
                                        size_t sharedMem COHORT_DEFAULT(0), cudaStream_t stream COHORT_DEFAULT(0));
cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t* config, const void* func, void** args);
// One cooperative grid per device, every grid the same kernel and shape, each
// on the device of its stream, all co-resident and running at once, so that
// this_multi_grid().sync() spans them (docs/outer-levels.md). A launch on the
// host completes before returning, so both flags' syncs hold already.
cudaError_t cudaLaunchCooperativeKernelMultiDevice(cudaLaunchParams* launchParamsList, unsigned int numDevices,
                                                   unsigned int flags COHORT_DEFAULT(0));
cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* attr, const void* func);
cudaError_t cudaFuncSetAttribute(const void* func, cudaFuncAttribute attr, int value);
cudaError_t cudaFuncSetCacheConfig(const void* func, cudaFuncCache cacheConfig);
cudaError_t cudaFuncSetSharedMemConfig(const void* func, cudaSharedMemConfig config);
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* numBlocks, const void* func, int blockSize,
                                                          size_t dynamicSMemSize);
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int* numBlocks, const void* func, int blockSize,
                                                                   size_t dynamicSMemSize, unsigned int flags);
cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t* dynamicSmemSize, const void* func, int numBlocks,
                                                      int blockSize);

#ifdef __cplusplus
}  // extern "C"

// CUDA 12's forms of the unified-memory hints (above), C++ overloads.
cudaError_t cudaMemPrefetchAsync(const void* devPtr, size_t count, int dstDevice, cudaStream_t stream = 0);
cudaError_t cudaMemAdvise(const void* devPtr, size_t count, cudaMemoryAdvise advice, int device);
#endif
