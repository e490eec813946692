// A kernel calling a __device__ function and counting in a __device__ variable
// that another file defines (separate_compilation_device.cu).
#include <cstdio>

extern __device__ int g_calls;
extern __device__ float affine(float x);

__global__ void apply(float* p, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = affine(p[i]);
}

int main() {
  const int n = 100;
  float* p;
  cudaMallocManaged(&p, n * sizeof(float));
  for (int i = 0; i < n; ++i) p[i] = static_cast<float>(i);
  apply<<<2, 64>>>(p, n);
  cudaDeviceSynchronize();
  int calls = 0;
  cudaMemcpyFromSymbol(&calls, g_calls, sizeof calls);
  int wrong = calls != n;
  for (int i = 0; i < n; ++i) wrong += p[i] != 2.0f * i + 1.0f;
  cudaFree(p);
  std::printf("%s: %d calls\n", wrong ? "FAIL" : "PASS", calls);
  return wrong != 0;
}
