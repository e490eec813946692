// The block's dynamic shared memory (the launch's dynamic_shared_bytes).
#pragma once

#include <cuda_runtime.h>

namespace cohort {

// Every extern __shared__ array of a kernel starts at the same address; this
// one is declared 16-byte aligned so that any vector type can be placed there.
template <class T = unsigned char>
__device__ T* dynamic_shared() {
  extern __shared__ __align__(16) unsigned char cohort_dynamic_shared_memory[];
  return reinterpret_cast<T*>(cohort_dynamic_shared_memory);
}

}  // namespace cohort
