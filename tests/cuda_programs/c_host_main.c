/* A program's host code in C, as older CUDA code bases keep it: it calls the
   runtime API from C (libcudart has C linkage) and a launcher that the .cu
   file exports with C linkage (c_host_kernels.cu). nvcc compiles it as C. */
#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>

void scale_on_device(float* data, int n, float factor);

int main(void) {
  const int n = 1000;
  float* host = (float*)malloc(n * sizeof(float));
  float* device = NULL;
  struct cudaDeviceProp prop;
  int failures = 0, i;
  if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess || prop.warpSize <= 0) return EXIT_FAILURE;
  for (i = 0; i < n; ++i) host[i] = (float)i;
  if (cudaMalloc((void**)&device, n * sizeof(float)) != cudaSuccess) return EXIT_FAILURE;
  cudaMemcpy(device, host, n * sizeof(float), cudaMemcpyHostToDevice);
  scale_on_device(device, n, 2.5f);
  if (cudaDeviceSynchronize() != cudaSuccess) {
    printf("the launch failed: %s\n", cudaGetErrorString(cudaGetLastError()));
    return EXIT_FAILURE;
  }
  cudaMemcpy(host, device, n * sizeof(float), cudaMemcpyDeviceToHost);
  for (i = 0; i < n; ++i)
    if (host[i] != 2.5f * (float)i) ++failures;
  cudaFree(device);
  free(host);
  printf(failures == 0 ? "Test passed\n" : "Test FAILED\n");
  return failures == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
