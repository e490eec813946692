// <cuda_profiler_api.h>: cudaProfilerStart/Stop, around the part of a program
// a GPU profiler should collect, succeed on the host backend.
#include <cuda_profiler_api.h>
#include <cstdio>

__global__ void touch(int* p) { p[threadIdx.x] = threadIdx.x; }

int main() {
  int* d;
  cudaMalloc(&d, 32 * sizeof(int));
  cudaError_t started = cudaProfilerStart();
  touch<<<1, 32>>>(d);
  cudaError_t stopped = cudaProfilerStop();
  cudaFree(d);
  if (started != cudaSuccess || stopped != cudaSuccess) {
    std::printf("FAIL: cudaProfilerStart: %s, cudaProfilerStop: %s\n", cudaGetErrorName(started),
                cudaGetErrorName(stopped));
    return 1;
  }
  std::printf("PASS\n");
  return 0;
}
