// Level-1 BLAS-like kernels organized as a library organizes them: in a nested
// namespace, with default arguments for the scalars (alpha = 1, increments = 1),
// launched by their qualified names with and without those arguments.
// The host checks scal, axpy with strides, and a dot product.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define N 10000
#define THREADS 256

#define CUBLAS_LIKE_CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

namespace minblas {
namespace kernels {
__global__ void scal(float* x, int n, float alpha = 1.0f, int incx = 1) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) x[i * incx] *= alpha;
}
__global__ void axpy(const float* x, float* y, int n, float alpha = 1.0f, int incx = 1, int incy = 1) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) y[i * incy] += alpha * x[i * incx];
}
__global__ void dot_partial(const float* x, const float* y, int n, float* partial) {
  __shared__ float s[THREADS];
  float v = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) v += x[i] * y[i];
  s[threadIdx.x] = v;
  __syncthreads();
  for (int k = THREADS / 2; k > 0; k >>= 1) {
    if (threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k];
    __syncthreads();
  }
  if (threadIdx.x == 0) partial[blockIdx.x] = s[0];
}
}  // namespace kernels
}  // namespace minblas

int main() {
  const int blocks = 32;
  float *h_x = (float*)malloc(2 * N * sizeof(float)), *h_y = (float*)malloc(N * sizeof(float));
  for (int i = 0; i < 2 * N; i++) h_x[i] = (float)(i % 100) / 10.0f;
  for (int i = 0; i < N; i++) h_y[i] = (float)(i % 7);
  float *d_x, *d_y, *d_partial;
  CUBLAS_LIKE_CHECK(cudaMalloc((void**)&d_x, 2 * N * sizeof(float)));
  CUBLAS_LIKE_CHECK(cudaMalloc((void**)&d_y, N * sizeof(float)));
  CUBLAS_LIKE_CHECK(cudaMalloc((void**)&d_partial, blocks * sizeof(float)));
  CUBLAS_LIKE_CHECK(cudaMemcpy(d_x, h_x, 2 * N * sizeof(float), cudaMemcpyHostToDevice));
  CUBLAS_LIKE_CHECK(cudaMemcpy(d_y, h_y, N * sizeof(float), cudaMemcpyHostToDevice));

  minblas::kernels::scal<<<blocks, THREADS>>>(d_x, 2 * N);          // alpha = 1: unchanged
  minblas::kernels::scal<<<blocks, THREADS>>>(d_x, N, 0.5f, 2);     // even elements halved
  minblas::kernels::axpy<<<blocks, THREADS>>>(d_x, d_y, N, 2.0f, 2);  // y += 2 x[2i]
  minblas::kernels::axpy<<<blocks, THREADS>>>(d_x + 1, d_y, N, -1.0f, 2);  // y -= x[2i + 1]
  minblas::kernels::dot_partial<<<blocks, THREADS>>>(d_y, d_y, N, d_partial);
  CUBLAS_LIKE_CHECK(cudaGetLastError());
  float* h_out = (float*)malloc(N * sizeof(float));
  float partial[blocks];
  CUBLAS_LIKE_CHECK(cudaMemcpy(h_out, d_y, N * sizeof(float), cudaMemcpyDeviceToHost));
  CUBLAS_LIKE_CHECK(cudaMemcpy(partial, d_partial, sizeof partial, cudaMemcpyDeviceToHost));
  int errors = 0;
  double dot = 0, got_dot = 0;
  for (int i = 0; i < N; i++) {
    float expect = h_y[i] + 2.0f * (0.5f * h_x[2 * i]) - h_x[2 * i + 1];
    dot += (double)expect * expect;
    if (fabsf(h_out[i] - expect) > 1e-5f * (1.0f + fabsf(expect)) && errors++ < 10) printf("y[%d] = %f, expected %f\n", i, h_out[i], expect);
  }
  for (int b = 0; b < blocks; b++) got_dot += partial[b];
  if (fabs(got_dot - dot) > 1e-5 * dot) { printf("dot %f, expected %f\n", got_dot, dot); errors++; }
  cudaFree(d_x); cudaFree(d_y); cudaFree(d_partial);
  free(h_x); free(h_y); free(h_out);
  if (errors) { printf("Test failed\n"); return 1; }
  printf("Test passed\n");
  return 0;
}
