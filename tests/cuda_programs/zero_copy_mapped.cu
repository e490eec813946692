// Zero-copy and pinned memory: the device is put in cudaDeviceMapHost mode, the
// inputs and output of a vector operation live in host memory allocated with
// cudaHostAlloc(cudaHostAllocMapped | cudaHostAllocWriteCombined), and the kernel
// reads and writes them through the device pointers cudaHostGetDevicePointer
// gives. The same operation then runs through cudaMallocHost buffers and explicit
// copies, timed with events; both results are checked on the host.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define N (1 << 18)
#define THREADS 256

#define checkCuda(result) check_cuda_result((result), __LINE__)
static cudaError_t check_cuda_result(cudaError_t result, int line) {
  if (result != cudaSuccess) {
    fprintf(stderr, "CUDA Runtime Error at line %d: %s\n", line, cudaGetErrorString(result));
    exit(1);
  }
  return result;
}

__global__ void saxpy_grid_stride(int n, float a, const float* x, const float* y, float* out) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[i] = a * x[i] + y[i];
}

int main() {
  cudaDeviceProp prop;
  checkCuda(cudaGetDeviceProperties(&prop, 0));
  if (!prop.canMapHostMemory) {
    printf("Device %s cannot map host memory; Test passed (waived)\n", prop.name);
    return 0;
  }
  checkCuda(cudaSetDeviceFlags(cudaDeviceMapHost));
  float *a_map, *b_map, *c_map, *d_a, *d_b, *d_c;
  checkCuda(cudaHostAlloc((void**)&a_map, N * sizeof(float), cudaHostAllocMapped | cudaHostAllocWriteCombined));
  checkCuda(cudaHostAlloc((void**)&b_map, N * sizeof(float), cudaHostAllocMapped | cudaHostAllocWriteCombined));
  checkCuda(cudaHostAlloc((void**)&c_map, N * sizeof(float), cudaHostAllocMapped));
  for (int i = 0; i < N; i++) {
    a_map[i] = (float)(i % 1000) * 0.01f;
    b_map[i] = (float)((i * 13) % 777);
  }
  checkCuda(cudaHostGetDevicePointer((void**)&d_a, (void*)a_map, 0));
  checkCuda(cudaHostGetDevicePointer((void**)&d_b, (void*)b_map, 0));
  checkCuda(cudaHostGetDevicePointer((void**)&d_c, (void*)c_map, 0));
  int blocks = 4 * prop.multiProcessorCount;
  saxpy_grid_stride<<<blocks, THREADS>>>(N, 2.5f, d_a, d_b, d_c);
  checkCuda(cudaGetLastError());
  checkCuda(cudaDeviceSynchronize());  // the results are in host memory once the kernel is done

  float *h_x, *h_y, *h_out, *dev_x, *dev_y, *dev_out;
  checkCuda(cudaMallocHost((void**)&h_x, N * sizeof(float)));
  checkCuda(cudaMallocHost((void**)&h_y, N * sizeof(float)));
  checkCuda(cudaMallocHost((void**)&h_out, N * sizeof(float)));
  checkCuda(cudaMalloc((void**)&dev_x, N * sizeof(float)));
  checkCuda(cudaMalloc((void**)&dev_y, N * sizeof(float)));
  checkCuda(cudaMalloc((void**)&dev_out, N * sizeof(float)));
  for (int i = 0; i < N; i++) { h_x[i] = a_map[i]; h_y[i] = -b_map[i]; }
  cudaEvent_t start, stop;
  checkCuda(cudaEventCreate(&start));
  checkCuda(cudaEventCreate(&stop));
  checkCuda(cudaEventRecord(start));
  checkCuda(cudaMemcpy(dev_x, h_x, N * sizeof(float), cudaMemcpyHostToDevice));
  checkCuda(cudaMemcpy(dev_y, h_y, N * sizeof(float), cudaMemcpyHostToDevice));
  saxpy_grid_stride<<<blocks, THREADS>>>(N, -1.5f, dev_x, dev_y, dev_out);
  checkCuda(cudaMemcpy(h_out, dev_out, N * sizeof(float), cudaMemcpyDeviceToHost));
  checkCuda(cudaEventRecord(stop));
  checkCuda(cudaEventSynchronize(stop));
  float ms;
  checkCuda(cudaEventElapsedTime(&ms, start, stop));
  printf("pinned round trip: %.3f ms, %.2f GB/s\n", ms, 3.0 * N * sizeof(float) / (ms * 1e6));

  int errors = 0;
  for (int i = 0; i < N; i++) {
    float e1 = 2.5f * a_map[i] + b_map[i], e2 = -1.5f * h_x[i] + h_y[i];
    if (fabsf(c_map[i] - e1) > 1e-4f * fabsf(e1) + 1e-4f && errors++ < 10) printf("mapped[%d] = %f, expected %f\n", i, c_map[i], e1);
    if (fabsf(h_out[i] - e2) > 1e-4f * fabsf(e2) + 1e-4f && errors++ < 10) printf("pinned[%d] = %f, expected %f\n", i, h_out[i], e2);
  }
  checkCuda(cudaEventDestroy(start));
  checkCuda(cudaEventDestroy(stop));
  checkCuda(cudaFreeHost(a_map)); checkCuda(cudaFreeHost(b_map)); checkCuda(cudaFreeHost(c_map));
  checkCuda(cudaFreeHost(h_x)); checkCuda(cudaFreeHost(h_y)); checkCuda(cudaFreeHost(h_out));
  checkCuda(cudaFree(dev_x)); checkCuda(cudaFree(dev_y)); checkCuda(cudaFree(dev_out));
  if (errors) { printf("Test failed\n"); return 1; }
  printf("Test passed\n");
  return 0;
}
