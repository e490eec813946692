// The textbook dot product: each block multiplies its share of the vectors,
// keeps its threads' sums in a shared cache and halves it with __syncthreads()
// until one sum is left; the host adds the per-block sums. Pinned host buffers
// from cudaMallocHost, a fixed small grid.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define imin(a, b) (a < b ? a : b)

const int N = 33 * 1024;
const int threadsPerBlock = 256;
const int blocksPerGrid = imin(32, (N + threadsPerBlock - 1) / threadsPerBlock);

static void HandleError(cudaError_t err, const char* file, int line) {
  if (err != cudaSuccess) {
    printf("%s in %s at line %d\n", cudaGetErrorString(err), file, line);
    exit(EXIT_FAILURE);
  }
}
#define HANDLE_ERROR(err) (HandleError(err, __FILE__, __LINE__))

__global__ void dot(const float* a, const float* b, float* c) {
  __shared__ float cache[threadsPerBlock];
  int tid = threadIdx.x + blockIdx.x * blockDim.x;
  int cacheIndex = threadIdx.x;
  float temp = 0;
  while (tid < N) {
    temp += a[tid] * b[tid];
    tid += blockDim.x * gridDim.x;
  }
  cache[cacheIndex] = temp;
  __syncthreads();
  // threadsPerBlock must be a power of 2
  int i = blockDim.x / 2;
  while (i != 0) {
    if (cacheIndex < i) cache[cacheIndex] += cache[cacheIndex + i];
    __syncthreads();
    i /= 2;
  }
  if (cacheIndex == 0) c[blockIdx.x] = cache[0];
}

int main(void) {
  float *a, *b, c, *partial_c;
  float *dev_a, *dev_b, *dev_partial_c;
  HANDLE_ERROR(cudaMallocHost((void**)&a, N * sizeof(float)));
  HANDLE_ERROR(cudaMallocHost((void**)&b, N * sizeof(float)));
  HANDLE_ERROR(cudaMallocHost((void**)&partial_c, blocksPerGrid * sizeof(float)));
  HANDLE_ERROR(cudaMalloc((void**)&dev_a, N * sizeof(float)));
  HANDLE_ERROR(cudaMalloc((void**)&dev_b, N * sizeof(float)));
  HANDLE_ERROR(cudaMalloc((void**)&dev_partial_c, blocksPerGrid * sizeof(float)));
  for (int i = 0; i < N; i++) {
    a[i] = (float)(i % 100) * 0.5f;
    b[i] = (float)((i * 7) % 64) * 0.25f;
  }
  HANDLE_ERROR(cudaMemcpy(dev_a, a, N * sizeof(float), cudaMemcpyHostToDevice));
  HANDLE_ERROR(cudaMemcpy(dev_b, b, N * sizeof(float), cudaMemcpyHostToDevice));
  dot<<<blocksPerGrid, threadsPerBlock>>>(dev_a, dev_b, dev_partial_c);
  HANDLE_ERROR(cudaGetLastError());
  HANDLE_ERROR(cudaMemcpy(partial_c, dev_partial_c, blocksPerGrid * sizeof(float), cudaMemcpyDeviceToHost));
  c = 0;
  for (int i = 0; i < blocksPerGrid; i++) c += partial_c[i];

  double expected = 0;
  for (int i = 0; i < N; i++) expected += (double)a[i] * b[i];
  bool ok = fabs(c - expected) <= 1e-5 * expected;
  printf("Does GPU value %.6g = %.6g?\n", c, expected);
  HANDLE_ERROR(cudaFree(dev_a));
  HANDLE_ERROR(cudaFree(dev_b));
  HANDLE_ERROR(cudaFree(dev_partial_c));
  HANDLE_ERROR(cudaFreeHost(a));
  HANDLE_ERROR(cudaFreeHost(b));
  HANDLE_ERROR(cudaFreeHost(partial_c));
  if (!ok) { printf("Test failed\n"); return 1; }
  printf("Test passed\n");
  return 0;
}
