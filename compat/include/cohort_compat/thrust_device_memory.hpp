// Thrust on the host backend (docs/cuda-compat.md, "Thrust"): its device
// system is the C++ one, which runs algorithms on the calling thread, and its
// device memory is cohort's device memory. Thrust's C++ system would take it
// from operator new and malloc, which cudaMemcpy, COHORT_CHECK=memory and the
// race check rightly refuse as host memory; a program that passes
// thrust::raw_pointer_cast(v.data()) to cudaMemcpy or a kernel must find what
// it would find on a GPU. These resources are what compat/include/thrust/'s
// headers, found before Thrust's own, put in place of Thrust's.
#pragma once

#include <thrust/detail/config.h>
#include <thrust/mr/memory_resource.h>
#include <thrust/system/detail/bad_alloc.h>
#include <cstddef>
#include <string>

#include "cuda_runtime_api.h"

namespace cohort_compat::thrust_memory {

// cudaMalloc, cudaMallocManaged or cudaMallocHost, as a Thrust memory resource.
template <cudaError_t (*Allocate)(void**, std::size_t), cudaError_t (*Release)(void*)>
class runtime_resource final : public thrust::mr::memory_resource<> {
 public:
  void* do_allocate(std::size_t bytes, std::size_t alignment) override {
    // Every allocation of the runtime is 256-byte aligned, as on a GPU.
    if (alignment > 256) throw thrust::system::detail::bad_alloc("alignment above 256 bytes for device memory");
    void* p = nullptr;
    if (const cudaError_t e = Allocate(&p, bytes == 0 ? 1 : bytes); e != cudaSuccess)
      throw thrust::system::detail::bad_alloc(cudaGetErrorString(e));
    return p;
  }
  void do_deallocate(void* p, std::size_t, std::size_t) override { Release(p); }
};

inline cudaError_t managed(void** p, std::size_t bytes) { return cudaMallocManaged(p, bytes, cudaMemAttachGlobal); }
inline cudaError_t pinned(void** p, std::size_t bytes) { return cudaMallocHost(p, bytes); }

using device_resource = runtime_resource<cudaMalloc, cudaFree>;
using managed_resource = runtime_resource<managed, cudaFree>;
using pinned_resource = runtime_resource<pinned, cudaFreeHost>;

// thrust::malloc / thrust::device_malloc and the algorithms' temporary buffers.
inline void* allocate(std::size_t bytes) {
  void* p = nullptr;
  return cudaMalloc(&p, bytes == 0 ? 1 : bytes) == cudaSuccess ? p : nullptr;
}
inline void release(void* p) { cudaFree(p); }

}  // namespace cohort_compat::thrust_memory
