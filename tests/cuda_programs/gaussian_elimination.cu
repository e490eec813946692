// Solving A x = b by Gaussian elimination without pivoting on a diagonally
// dominant system: for each pivot t, one kernel computes the column of
// multipliers and a 2-D kernel eliminates it from the rows below (matrix and
// right-hand side together); the host back-substitutes and checks x.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define SIZE 128
#define BLOCK_1D 64
#define BLOCK_2D 16

#define checkCudaErrors(val) check((val), #val, __FILE__, __LINE__)
static void check(cudaError_t result, const char* func, const char* file, int line) {
  if (result) {
    fprintf(stderr, "CUDA error at %s:%d code=%d(%s) \"%s\"\n", file, line, (int)result,
            cudaGetErrorName(result), func);
    exit(EXIT_FAILURE);
  }
}

__global__ void compute_multipliers(float* m, const float* a, int size, int t) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= size - 1 - t) return;
  int row = i + t + 1;
  m[row * size + t] = a[row * size + t] / a[t * size + t];
}

__global__ void eliminate(const float* m, float* a, float* b, int size, int t) {
  int xidx = blockIdx.x * blockDim.x + threadIdx.x;  // column offset from t
  int yidx = blockIdx.y * blockDim.y + threadIdx.y;  // row offset from t + 1
  if (xidx >= size - t || yidx >= size - 1 - t) return;
  int row = yidx + t + 1, col = xidx + t;
  float mult = m[row * size + t];
  a[row * size + col] -= mult * a[t * size + col];
  if (xidx == 0) b[row] -= mult * b[t];
}

int main() {
  const int n = SIZE;
  float *a = (float*)malloc(n * n * sizeof(float)), *b = (float*)malloc(n * sizeof(float));
  float *x_true = (float*)malloc(n * sizeof(float)), *x = (float*)malloc(n * sizeof(float));
  srand(42);
  for (int i = 0; i < n; i++) {
    float row_sum = 0;
    for (int j = 0; j < n; j++) {
      a[i * n + j] = (float)(rand() % 200 - 100) / 100.0f;
      row_sum += fabsf(a[i * n + j]);
    }
    a[i * n + i] = row_sum + 1.0f;
    x_true[i] = (float)(rand() % 100) / 10.0f - 5.0f;
  }
  for (int i = 0; i < n; i++) {
    double s = 0;
    for (int j = 0; j < n; j++) s += (double)a[i * n + j] * x_true[j];
    b[i] = (float)s;
  }
  float *d_a, *d_b, *d_m;
  checkCudaErrors(cudaMalloc((void**)&d_a, n * n * sizeof(float)));
  checkCudaErrors(cudaMalloc((void**)&d_b, n * sizeof(float)));
  checkCudaErrors(cudaMalloc((void**)&d_m, n * n * sizeof(float)));
  checkCudaErrors(cudaMemcpy(d_a, a, n * n * sizeof(float), cudaMemcpyHostToDevice));
  checkCudaErrors(cudaMemcpy(d_b, b, n * sizeof(float), cudaMemcpyHostToDevice));
  checkCudaErrors(cudaMemset(d_m, 0, n * n * sizeof(float)));

  cudaEvent_t start, stop;
  checkCudaErrors(cudaEventCreate(&start));
  checkCudaErrors(cudaEventCreate(&stop));
  checkCudaErrors(cudaEventRecord(start, 0));
  dim3 block1(BLOCK_1D), grid1((n + BLOCK_1D - 1) / BLOCK_1D);
  dim3 block2(BLOCK_2D, BLOCK_2D), grid2((n + BLOCK_2D - 1) / BLOCK_2D, (n + BLOCK_2D - 1) / BLOCK_2D);
  for (int t = 0; t < n - 1; t++) {
    compute_multipliers<<<grid1, block1>>>(d_m, d_a, n, t);
    eliminate<<<grid2, block2>>>(d_m, d_a, d_b, n, t);
  }
  checkCudaErrors(cudaGetLastError());
  checkCudaErrors(cudaEventRecord(stop, 0));
  checkCudaErrors(cudaEventSynchronize(stop));
  float ms = 0;
  checkCudaErrors(cudaEventElapsedTime(&ms, start, stop));
  checkCudaErrors(cudaMemcpy(a, d_a, n * n * sizeof(float), cudaMemcpyDeviceToHost));
  checkCudaErrors(cudaMemcpy(b, d_b, n * sizeof(float), cudaMemcpyDeviceToHost));

  for (int i = n - 1; i >= 0; i--) {  // back substitution on the upper triangle
    float s = b[i];
    for (int j = i + 1; j < n; j++) s -= a[i * n + j] * x[j];
    x[i] = s / a[i * n + i];
  }
  int errors = 0;
  for (int i = 0; i < n; i++)
    if (fabsf(x[i] - x_true[i]) > 1e-3f && errors++ < 10) printf("x[%d] = %f, expected %f\n", i, x[i], x_true[i]);
  for (int i = 1; i < n; i++)  // below the diagonal, the elimination leaves zeros
    if (fabsf(a[i * n]) > 1e-4f && errors++ < 10) printf("a[%d][0] = %g, expected 0\n", i, a[i * n]);
  printf("elimination took %.3f ms\n", ms);
  cudaEventDestroy(start); cudaEventDestroy(stop);
  cudaFree(d_a); cudaFree(d_b); cudaFree(d_m);
  free(a); free(b); free(x_true); free(x);
  if (errors) { printf("Test failed\n"); return 1; }
  printf("Test passed\n");
  return 0;
}
