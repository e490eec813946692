// Unified memory, as introductory tutorials use it: two arrays from
// cudaMallocManaged written by the host, prefetched to the device, added by a
// grid-stride kernel sized from the SM count, then read back by the host with no
// copies; a __managed__ counter collects the device-side check of the result.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define gpuCheck(ans) { gpu_assert((ans), __FILE__, __LINE__); }
static void gpu_assert(cudaError_t code, const char* file, int line) {
  if (code != cudaSuccess) {
    fprintf(stderr, "GPUassert: %s %s %d\n", cudaGetErrorString(code), file, line);
    exit(code);
  }
}

__managed__ int mismatches = 0;

__global__ void add(int n, const float* x, float* y) {
  int index = blockIdx.x * blockDim.x + threadIdx.x;
  int stride = blockDim.x * gridDim.x;
  for (int i = index; i < n; i += stride) y[i] = x[i] + y[i];
}

__global__ void check(int n, const float* y, float expected) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    if (fabsf(y[i] - expected) > 1e-6f) atomicAdd(&mismatches, 1);
}

static void prefetch(const void* p, size_t bytes, int device) {
#if CUDART_VERSION >= 13000
  cudaMemLocation location = {};
  location.type = device == cudaCpuDeviceId ? cudaMemLocationTypeHost : cudaMemLocationTypeDevice;
  location.id = device == cudaCpuDeviceId ? 0 : device;
  gpuCheck(cudaMemPrefetchAsync(p, bytes, location, 0, 0));
#else
  gpuCheck(cudaMemPrefetchAsync(p, bytes, device, 0));
#endif
}

int main(void) {
  int N = 1 << 20;
  float *x, *y;
  gpuCheck(cudaMallocManaged(&x, N * sizeof(float)));
  gpuCheck(cudaMallocManaged(&y, N * sizeof(float)));
  for (int i = 0; i < N; i++) {
    x[i] = 1.0f;
    y[i] = 2.0f;
  }
  int device = -1, numSMs = 0, concurrent = 0;
  gpuCheck(cudaGetDevice(&device));
  gpuCheck(cudaDeviceGetAttribute(&numSMs, cudaDevAttrMultiProcessorCount, device));
  gpuCheck(cudaDeviceGetAttribute(&concurrent, cudaDevAttrConcurrentManagedAccess, device));
  if (concurrent) {
    prefetch(x, N * sizeof(float), device);
    prefetch(y, N * sizeof(float), device);
  }
  int blockSize = 256;
  add<<<32 * numSMs, blockSize>>>(N, x, y);
  check<<<32 * numSMs, blockSize>>>(N, y, 3.0f);
  gpuCheck(cudaGetLastError());
  gpuCheck(cudaDeviceSynchronize());
  if (concurrent) prefetch(y, N * sizeof(float), cudaCpuDeviceId);
  gpuCheck(cudaDeviceSynchronize());
  float maxError = 0.0f;
  for (int i = 0; i < N; i++) maxError = fmaxf(maxError, fabsf(y[i] - 3.0f));
  printf("Max error: %g, device-side mismatches: %d\n", maxError, mismatches);
  gpuCheck(cudaFree(x));
  gpuCheck(cudaFree(y));
  if (maxError != 0.0f || mismatches != 0) { printf("Test failed\n"); return 1; }
  printf("Test passed\n");
  return 0;
}
