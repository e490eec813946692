// The one header that chooses the backend. nvcc compiling CUDA selects the cuda
// backend; any other compiler selects the host backend, also where cohort-cxx
// defines __CUDACC__ in a .cu file, as nvcc does (COHORT_CUDA_ON_HOST says so). Everything else is
// written once over the primitives the chosen backend supplies under
// include/cohort/detail/<backend>/ (docs/architecture.md lists them): a public
// header names a backend file only through COHORT_BACKEND_HEADER.
#pragma once

#if defined(__CUDACC__) && !defined(COHORT_CUDA_ON_HOST)
#define COHORT_BACKEND_CUDA 1
#define COHORT_BACKEND_HOST 0
#define COHORT_HD __host__ __device__
#define COHORT_DEVICE __device__
#define COHORT_INLINE __forceinline__
#define COHORT_BACKEND_HEADER(file) <cohort/detail/cuda/file>
#else
#define COHORT_BACKEND_CUDA 0
#define COHORT_BACKEND_HOST 1
#define COHORT_HD
#define COHORT_DEVICE
#define COHORT_INLINE inline __attribute__((always_inline))
#define COHORT_BACKEND_HEADER(file) <cohort/detail/host/file>
#endif

#include COHORT_BACKEND_HEADER(call_site.hpp)

// The chosen backend's private namespace, under the one name that the shared
// headers call its primitives by.
namespace cohort::detail {
#if COHORT_BACKEND_CUDA
namespace gpu {}
namespace impl = gpu;
#else
namespace host {}
namespace impl = host;
#endif
}  // namespace cohort::detail

namespace cohort {
enum class backend { host, cuda };
#if COHORT_BACKEND_CUDA
inline constexpr backend this_backend = backend::cuda;
#else
inline constexpr backend this_backend = backend::host;
#endif
}  // namespace cohort
