// Host code in a .cpp file, as CUDA projects keep it next to their .cu files:
// it includes the runtime and reads cudaDeviceProp::warpSize.
#include <cuda_runtime.h>

#include "device_query.hpp"

int queried_warp_size() {
  cudaDeviceProp prop;
  if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess) return -1;
#ifdef __CUDA_ARCH__
  return -2;  // nvcc compiles .cpp files without it
#else
  return prop.warpSize;
#endif
}
