// Host code that names things the way real CUDA programs do: a local
// `dim3 gridDim` and `blockDim` (the kernel language's names are variables
// that host code may shadow, as with nvcc), a parameter called blockIdx,
// cudaDeviceProp::warpSize and cudaLaunchConfig_t::gridDim, NVIDIA's include
// guards (helper headers test __DRIVER_TYPES_H__ and __CUDA_RUNTIME_H__),
// cudaComputeMode, error names of CUDA 13, a dim3 comparison and a lerp of
// the program's own (NVIDIA's dim3 has none; helper_math.h defines lerp, which
// C++20's <math.h> would also export).
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#ifdef __DRIVER_TYPES_H__
#define CHECK(call) check((call), #call, __LINE__)
static void check(cudaError_t e, const char* what, int line) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "line %d: %s: %s (%s)\n", line, what, cudaGetErrorString(e), cudaGetErrorName(e));
    std::exit(1);
  }
}
#endif

#ifndef __CUDA_RUNTIME_H__
#error "<cuda_runtime.h> defines __CUDA_RUNTIME_H__"
#endif

#include <math.h>

bool operator==(const dim3& a, const dim3& b) { return a.x == b.x && a.y == b.y && a.z == b.z; }
inline __host__ __device__ float lerp(float a, float b, float t) { return a + t * (b - a); }

__global__ void record(int* out) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  out[t] = t * warpSize + gridDim.x;
}

static int blocks_of(dim3 blockIdx) { return static_cast<int>(blockIdx.x * blockIdx.y); }

int main() {
  int failures = 0;
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  int mode = -1;
  CHECK(cudaDeviceGetAttribute(&mode, cudaDevAttrComputeMode, 0));
  if (mode == cudaComputeModeProhibited || mode == cudaComputeModeExclusive ||
      mode == cudaComputeModeExclusiveProcess) {
    std::printf("the device should be in the default compute mode, is %d\n", mode);
    ++failures;
  }
  const int warp = prop.warpSize;

  dim3 gridDim(2, 1);
  dim3 blockDim(64);
  if (!(gridDim == dim3(2, 1, 1))) ++failures;
  if (lerp(1.0f, 3.0f, 0.25f) != 1.5f) ++failures;
  int* d = nullptr;
  const int n = blocks_of(gridDim) * static_cast<int>(blockDim.x);
  CHECK(cudaMalloc(&d, n * sizeof(int)));
  record<<<gridDim, blockDim>>>(d);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  int* h = static_cast<int*>(std::malloc(n * sizeof(int)));
  CHECK(cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i)
    if (h[i] != i * warp + 2) {
      std::printf("element %d is %d, expected %d\n", i, h[i], i * warp + 2);
      ++failures;
      break;
    }

  cudaLaunchConfig_t config = {};
  config.gridDim = gridDim;
  config.blockDim = blockDim;
  if (config.gridDim.x != 2 || config.blockDim.x != 64) ++failures;

  const char* name = cudaGetErrorName(cudaErrorStreamCaptureInvalidated);
  if (std::strcmp(name, "cudaErrorStreamCaptureInvalidated") != 0) {
    std::printf("cudaGetErrorName(901) is %s\n", name);
    ++failures;
  }
  if (cudaErrorProfilerDisabled != 5 || cudaErrorTimeout != 909 || cudaErrorInvalidClusterSize != 912) ++failures;

  CHECK(cudaFree(d));
  std::free(h);
  std::printf(failures == 0 ? "Test passed\n" : "Test FAILED\n");
  return failures == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
