// <cuda_runtime.h> for cohort's host backend: the runtime API, its typed C++
// overloads (CUDA's header has the same ones), the kernel language and the
// device builtins. cohort-cxx includes it first in every .cu file, as nvcc does.
#pragma once
#define __CUDA_RUNTIME_H__  // NVIDIA's include guard: programs test it

#include "cohort_compat/std_names.hpp"  // before anything includes <cmath>

#include <cstddef>

// A tile's num_threads() and size() are NVIDIA's (Size, in a block's partial
// last tile too) in code that comes through CUDA's headers; threads_present()
// is cohort's count (docs/cuda-compat.md).
#define COHORT_NVIDIA_TILE_SIZES
#include <cohort/cohort.hpp>

#include "cohort_compat/dynamic_shared.hpp"
#include "cohort_compat/launch.hpp"
#include "cuda_runtime_api.h"
#include "surface_functions.h"
#include "texture_fetch_functions.h"

// CUDA's device functions, as nvcc declares them: in .cu files (__CUDACC__),
// not in host .cpp files, which may define host versions of their own (as
// NVIDIA's helper_math.h does).
#ifdef __CUDACC__
#include "cohort_compat/device_functions.hpp"
#include "cohort_compat/ptx.hpp"
#include "cohort_compat/rounding_intrinsics.hpp"
#include "cohort_compat/special_functions.hpp"
#endif

#define __managed__
// `__shared__ __align__(16) float x[...]`: __shared__ is `static thread_local`
// here, and a GNU attribute may stand among the decl-specifiers where alignas may not.
#undef __align__
#define __align__(n) __attribute__((aligned(n)))

// Through void*, as NVIDIA's templates cast: T may be const (`const float* p;
// cudaMalloc(&p, n)`), which a cast straight to void** would refuse.
template <class T>
cudaError_t cudaMalloc(T** devPtr, size_t size) {
  return cudaMalloc(static_cast<void**>(static_cast<void*>(devPtr)), size);
}
template <class T>
cudaError_t cudaMallocManaged(T** devPtr, size_t size, unsigned int flags = cudaMemAttachGlobal) {
  return cudaMallocManaged(static_cast<void**>(static_cast<void*>(devPtr)), size, flags);
}
template <class T>
cudaError_t cudaMallocHost(T** ptr, size_t size, unsigned int flags = 0) {
  return cudaHostAlloc(static_cast<void**>(static_cast<void*>(ptr)), size, flags);
}
template <class T>
cudaError_t cudaHostAlloc(T** ptr, size_t size, unsigned int flags) {
  return cudaHostAlloc(static_cast<void**>(static_cast<void*>(ptr)), size, flags);
}
template <class T>
cudaError_t cudaMallocPitch(T** devPtr, size_t* pitch, size_t width, size_t height) {
  return cudaMallocPitch(static_cast<void**>(static_cast<void*>(devPtr)), pitch, width, height);
}
template <class T>
cudaError_t cudaMallocAsync(T** devPtr, size_t size, cudaStream_t stream) {
  return cudaMallocAsync(static_cast<void**>(static_cast<void*>(devPtr)), size, stream);
}
template <class T>
cudaError_t cudaHostGetDevicePointer(T** devPtr, void* hostPtr, unsigned int flags) {
  return cudaHostGetDevicePointer(static_cast<void**>(static_cast<void*>(devPtr)), hostPtr, flags);
}

template <class T>
cudaError_t cudaMemcpyToSymbol(const T& symbol, const void* src, size_t count = sizeof(T), size_t offset = 0,
                               cudaMemcpyKind kind = cudaMemcpyHostToDevice) {
  return cohort::compat::finish_synchronous(
      cohort::compat::copy_to_symbol(const_cast<T*>(&symbol), sizeof(T), src, count, offset, kind, nullptr));
}
template <class T>
cudaError_t cudaMemcpyToSymbolAsync(const T& symbol, const void* src, size_t count, size_t offset = 0,
                                    cudaMemcpyKind kind = cudaMemcpyHostToDevice, cudaStream_t stream = 0) {
  return cohort::compat::copy_to_symbol(const_cast<T*>(&symbol), sizeof(T), src, count, offset, kind, stream);
}
template <class T>
cudaError_t cudaMemcpyFromSymbol(void* dst, const T& symbol, size_t count = sizeof(T), size_t offset = 0,
                                 cudaMemcpyKind kind = cudaMemcpyDeviceToHost) {
  return cohort::compat::finish_synchronous(
      cohort::compat::copy_from_symbol(dst, &symbol, sizeof(T), count, offset, kind, nullptr));
}
template <class T>
cudaError_t cudaMemcpyFromSymbolAsync(void* dst, const T& symbol, size_t count, size_t offset = 0,
                                      cudaMemcpyKind kind = cudaMemcpyDeviceToHost, cudaStream_t stream = 0) {
  return cohort::compat::copy_from_symbol(dst, &symbol, sizeof(T), count, offset, kind, stream);
}
template <class T>
cudaError_t cudaGetSymbolAddress(void** devPtr, const T& symbol) {
  return cohort::compat::symbol_address(devPtr, &symbol, sizeof(T));
}
template <class T>
cudaError_t cudaGetSymbolSize(size_t* size, const T&) {
  if (size == nullptr) return cudaErrorInvalidValue;
  *size = sizeof(T);
  return cudaSuccess;
}

// Launches through a kernel's typed pointer: the parameter types come from the
// pointer, so no registration is needed, and the kernel is registered for
// later launches by address.
template <class... P>
cudaError_t cudaLaunchKernel(void (*func)(P...), dim3 grid, dim3 block, void** args, size_t sharedMem = 0,
                             cudaStream_t stream = 0) {
  return cohort::compat::detail::launch_from_args<P...>("cudaLaunchKernel", reinterpret_cast<const void*>(func),
                                                        {grid, block, sharedMem, stream, false}, args);
}
template <class... P>
cudaError_t cudaLaunchCooperativeKernel(void (*func)(P...), dim3 grid, dim3 block, void** args, size_t sharedMem = 0,
                                        cudaStream_t stream = 0) {
  return cohort::compat::detail::launch_from_args<P...>(
      "cudaLaunchCooperativeKernel", reinterpret_cast<const void*>(func), {grid, block, sharedMem, stream, true}, args);
}

template <class... ExpTypes, class... ActTypes>
cudaError_t cudaLaunchKernelEx(const cudaLaunchConfig_t* config, void (*kernel)(ExpTypes...), ActTypes&&... args) {
  cohort::compat::launch_request request;
  if (const cudaError_t e = cohort::compat::request_of(config, &request); e != cudaSuccess) return e;
  return cohort::compat::launch_typed(kernel, request, std::forward<ActTypes>(args)...);
}
template <class... P>
cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t* config, void (*kernel)(P...), void** args) {
  cohort::compat::detail::remember(kernel);
  return cudaLaunchKernelExC(config, reinterpret_cast<const void*>(kernel), args);
}

template <class... P>
cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* attr, void (*func)(P...)) {
  return cudaFuncGetAttributes(attr, cohort::compat::detail::remember(func));
}
template <class... P>
cudaError_t cudaFuncSetAttribute(void (*func)(P...), cudaFuncAttribute attr, int value) {
  return cudaFuncSetAttribute(cohort::compat::detail::remember(func), attr, value);
}
template <class... P>
cudaError_t cudaFuncSetCacheConfig(void (*func)(P...), cudaFuncCache cacheConfig) {
  return cudaFuncSetCacheConfig(cohort::compat::detail::remember(func), cacheConfig);
}
template <class... P>
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* numBlocks, void (*func)(P...), int blockSize,
                                                          size_t dynamicSMemSize) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessor(numBlocks, cohort::compat::detail::remember(func), blockSize,
                                                       dynamicSMemSize);
}
template <class... P>
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int* numBlocks, void (*func)(P...), int blockSize,
                                                                   size_t dynamicSMemSize, unsigned int flags) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, cohort::compat::detail::remember(func),
                                                                blockSize, dynamicSMemSize, flags);
}
template <class... P>
cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t* dynamicSmemSize, void (*func)(P...), int numBlocks,
                                                      int blockSize) {
  return cudaOccupancyAvailableDynamicSMemPerBlock(dynamicSmemSize, cohort::compat::detail::remember(func), numBlocks,
                                                   blockSize);
}
template <class T>
cudaError_t cudaOccupancyMaxPotentialBlockSize(int* minGridSize, int* blockSize, T func, size_t dynamicSMemSize = 0,
                                               int blockSizeLimit = 0) {
  return cohort::compat::max_potential_block_size(
      minGridSize, blockSize, reinterpret_cast<const void*>(func),
      [](int, const void* bytes) { return *static_cast<const size_t*>(bytes); }, &dynamicSMemSize, blockSizeLimit);
}
template <class UnaryFunction, class T>
cudaError_t cudaOccupancyMaxPotentialBlockSizeVariableSMem(int* minGridSize, int* blockSize, T func,
                                                           UnaryFunction blockSizeToDynamicSMemSize,
                                                           int blockSizeLimit = 0) {
  return cohort::compat::max_potential_block_size(
      minGridSize, blockSize, reinterpret_cast<const void*>(func),
      [](int block, const void* f) { return static_cast<size_t>((*static_cast<const UnaryFunction*>(f))(block)); },
      &blockSizeToDynamicSMemSize, blockSizeLimit);
}
