// In-place LU decomposition (Doolittle, no pivoting) of a diagonally dominant
// matrix: for each k, a 1-D kernel scales column k below the diagonal, then a
// 2-D kernel updates the trailing submatrix, each 16 x 16 block staging its
// piece of row k and column k in shared memory. The host checks L * U == A.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define MATRIX_DIM 160
#define TILE 16

#define HANDLE_ERROR(err) (handle_error(err, __FILE__, __LINE__))
static void handle_error(cudaError_t err, const char* file, int line) {
  if (err != cudaSuccess) {
    printf("%s in %s at line %d\n", cudaGetErrorString(err), file, line);
    exit(EXIT_FAILURE);
  }
}

__global__ void lu_scale_column(float* m, int dim, int k) {
  int i = k + 1 + blockIdx.x * blockDim.x + threadIdx.x;
  if (i < dim) m[i * dim + k] = m[i * dim + k] / m[k * dim + k];
}

__global__ void lu_update_trailing(float* m, int dim, int k) {
  __shared__ float row_k[TILE];
  __shared__ float col_k[TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int j = k + 1 + blockIdx.x * TILE + tx;
  int i = k + 1 + blockIdx.y * TILE + ty;
  if (ty == 0) row_k[tx] = j < dim ? m[k * dim + j] : 0.0f;
  if (tx == 0) col_k[ty] = i < dim ? m[i * dim + k] : 0.0f;
  __syncthreads();
  if (i < dim && j < dim) m[i * dim + j] -= col_k[ty] * row_k[tx];
}

int main() {
  const int n = MATRIX_DIM;
  float *a = (float*)malloc(n * n * sizeof(float)), *lu = (float*)malloc(n * n * sizeof(float));
  srand(2718);
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < n; j++) a[i * n + j] = (float)(rand() % 1000) / 1000.0f;
    a[i * n + i] += (float)n;
  }
  float* d_m;
  HANDLE_ERROR(cudaMalloc((void**)&d_m, n * n * sizeof(float)));
  HANDLE_ERROR(cudaMemcpy(d_m, a, n * n * sizeof(float), cudaMemcpyHostToDevice));
  for (int k = 0; k < n - 1; k++) {
    int rest = n - k - 1;
    lu_scale_column<<<(rest + 127) / 128, 128>>>(d_m, n, k);
    dim3 threads(TILE, TILE);
    dim3 blocks((rest + TILE - 1) / TILE, (rest + TILE - 1) / TILE);
    lu_update_trailing<<<blocks, threads>>>(d_m, n, k);
  }
  HANDLE_ERROR(cudaGetLastError());
  HANDLE_ERROR(cudaMemcpy(lu, d_m, n * n * sizeof(float), cudaMemcpyDeviceToHost));

  int errors = 0;
  double max_err = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      double s = 0;  // (L U)[i][j], L unit lower triangular, U upper triangular
      for (int k = 0; k <= (i < j ? i : j); k++) s += (k == i ? 1.0 : (double)lu[i * n + k]) * lu[k * n + j];
      double err = fabs(s - a[i * n + j]);
      if (err > max_err) max_err = err;
      if (err > 1e-3 * (1.0 + fabs(a[i * n + j])) && errors++ < 10) printf("(LU)[%d][%d] = %f, A = %f\n", i, j, s, a[i * n + j]);
    }
  printf("max |LU - A| = %g\n", max_err);
  HANDLE_ERROR(cudaFree(d_m));
  free(a); free(lu);
  if (errors) { printf("Test failed\n"); return 1; }
  printf("Test passed\n");
  return 0;
}
