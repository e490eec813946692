// An unmodified CUDA program with a planted race: the array reversal of
// NVIDIA's shared-memory primer with its __syncthreads() left out. Built with
// cohort-cxx --races and run under COHORT_CHECK=races, it fails with the race.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void dynamicReverse(int* d, int n) {
  extern __shared__ int s[];
  int t = threadIdx.x;
  s[t] = d[t];  // mark:reverse.write
  d[t] = s[n - t - 1];  // mark:reverse.read
}

int main() {
  const int n = 64;
  int a[n];
  for (int i = 0; i < n; i++) a[i] = i;
  int* d;
  cudaMalloc(&d, n * sizeof(int));
  cudaMemcpy(d, a, n * sizeof(int), cudaMemcpyHostToDevice);
  dynamicReverse<<<1, n, n * sizeof(int)>>>(d, n);
  const cudaError_t e = cudaDeviceSynchronize();
  std::printf("%s\n", cudaGetErrorString(e));
  cudaFree(d);
  return e == cudaSuccess ? 0 : 1;
}
