// Which backend this translation unit is compiled for, and the qualifiers that
// let one source serve both. nvcc compiling CUDA selects the cuda backend;
// any other compiler selects the host backend.
#pragma once

#if defined(__CUDACC__)
#define COHORT_BACKEND_CUDA 1
#define COHORT_BACKEND_HOST 0
#define COHORT_HD __host__ __device__
#define COHORT_DEVICE __device__
#define COHORT_INLINE __forceinline__
#else
#define COHORT_BACKEND_CUDA 0
#define COHORT_BACKEND_HOST 1
#define COHORT_HD
#define COHORT_DEVICE
#define COHORT_INLINE inline __attribute__((always_inline))
#endif

namespace cohort {
enum class backend { host, cuda };
#if COHORT_BACKEND_CUDA
inline constexpr backend this_backend = backend::cuda;
#else
inline constexpr backend this_backend = backend::host;
#endif
}  // namespace cohort
