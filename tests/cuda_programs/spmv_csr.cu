// Sparse matrix-vector product y = A x with A in CSR form, two ways: the scalar
// kernel (one thread per row) and the vector kernel (one warp per row, lanes
// striding over the row's nonzeros, a __shfl_down_sync reduction), both reading
// x through __ldg. The host computes y in double and compares with a tolerance.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define NUM_ROWS 6000
#define NUM_COLS 5000
#define MAX_ROW_NNZ 48
#define WARP_SIZE 32
#define VECTOR_BLOCK 128

#define checkCudaErrors(err) __checkCudaErrors(err, __FILE__, __LINE__)
inline void __checkCudaErrors(cudaError_t err, const char* file, const int line) {
  if (cudaSuccess != err) {
    fprintf(stderr, "checkCudaErrors() error = %04d \"%s\" from file <%s>, line %i.\n", err,
            cudaGetErrorString(err), file, line);
    exit(EXIT_FAILURE);
  }
}

__global__ void spmv_csr_scalar(int num_rows, const int* row_ptr, const int* cols, const float* vals,
                                const float* x, float* y) {
  int row = blockDim.x * blockIdx.x + threadIdx.x;
  if (row < num_rows) {
    float dot = 0;
    for (int jj = row_ptr[row]; jj < row_ptr[row + 1]; jj++) dot += vals[jj] * __ldg(&x[cols[jj]]);
    y[row] = dot;
  }
}

__global__ void spmv_csr_vector(int num_rows, const int* __restrict__ row_ptr, const int* __restrict__ cols,
                                const float* __restrict__ vals, const float* __restrict__ x, float* y) {
  int thread_id = blockDim.x * blockIdx.x + threadIdx.x;
  int warp_id = thread_id / WARP_SIZE;
  int lane = thread_id & (WARP_SIZE - 1);
  int num_warps = (gridDim.x * blockDim.x) / WARP_SIZE;
  for (int row = warp_id; row < num_rows; row += num_warps) {  // the whole warp takes the same rows
    int start = __ldg(&row_ptr[row]), end = __ldg(&row_ptr[row + 1]);
    float sum = 0;
    for (int jj = start + lane; jj < end; jj += WARP_SIZE) sum += __ldg(&vals[jj]) * __ldg(&x[__ldg(&cols[jj])]);
    for (int offset = WARP_SIZE / 2; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffff, sum, offset);
    if (lane == 0) y[row] = sum;
  }
}

int main() {
  int* h_row_ptr = (int*)malloc((NUM_ROWS + 1) * sizeof(int));
  int* h_cols = (int*)malloc(NUM_ROWS * MAX_ROW_NNZ * sizeof(int));
  float* h_vals = (float*)malloc(NUM_ROWS * MAX_ROW_NNZ * sizeof(float));
  float *h_x = (float*)malloc(NUM_COLS * sizeof(float)), *h_y = (float*)malloc(NUM_ROWS * sizeof(float));
  srand(4242);
  int nnz = 0;
  for (int r = 0; r < NUM_ROWS; r++) {
    h_row_ptr[r] = nnz;
    int count = (r % 17 == 0) ? MAX_ROW_NNZ : rand() % 12;  // a few long rows, many short or empty
    int col = rand() % 50;
    for (int k = 0; k < count && col < NUM_COLS; k++, col += 1 + rand() % 100) {
      h_cols[nnz] = col;
      h_vals[nnz++] = (float)(rand() % 2000 - 1000) / 256.0f;
    }
  }
  h_row_ptr[NUM_ROWS] = nnz;
  for (int c = 0; c < NUM_COLS; c++) h_x[c] = (float)(rand() % 1000) / 500.0f - 1.0f;

  int *d_row_ptr, *d_cols;
  float *d_vals, *d_x, *d_y;
  checkCudaErrors(cudaMalloc((void**)&d_row_ptr, (NUM_ROWS + 1) * sizeof(int)));
  checkCudaErrors(cudaMalloc((void**)&d_cols, nnz * sizeof(int)));
  checkCudaErrors(cudaMalloc((void**)&d_vals, nnz * sizeof(float)));
  checkCudaErrors(cudaMalloc((void**)&d_x, NUM_COLS * sizeof(float)));
  checkCudaErrors(cudaMalloc((void**)&d_y, NUM_ROWS * sizeof(float)));
  checkCudaErrors(cudaMemcpy(d_row_ptr, h_row_ptr, (NUM_ROWS + 1) * sizeof(int), cudaMemcpyHostToDevice));
  checkCudaErrors(cudaMemcpy(d_cols, h_cols, nnz * sizeof(int), cudaMemcpyHostToDevice));
  checkCudaErrors(cudaMemcpy(d_vals, h_vals, nnz * sizeof(float), cudaMemcpyHostToDevice));
  checkCudaErrors(cudaMemcpy(d_x, h_x, NUM_COLS * sizeof(float), cudaMemcpyHostToDevice));

  double* ref = (double*)calloc(NUM_ROWS, sizeof(double));
  double* mag = (double*)calloc(NUM_ROWS, sizeof(double));
  for (int r = 0; r < NUM_ROWS; r++)
    for (int jj = h_row_ptr[r]; jj < h_row_ptr[r + 1]; jj++) {
      ref[r] += (double)h_vals[jj] * h_x[h_cols[jj]];
      mag[r] += fabs((double)h_vals[jj] * h_x[h_cols[jj]]);
    }
  int errors = 0;
  for (int pass = 0; pass < 2; pass++) {
    checkCudaErrors(cudaMemset(d_y, 0xff, NUM_ROWS * sizeof(float)));  // NaNs
    if (pass == 0)
      spmv_csr_scalar<<<(NUM_ROWS + 255) / 256, 256>>>(NUM_ROWS, d_row_ptr, d_cols, d_vals, d_x, d_y);
    else
      spmv_csr_vector<<<120, VECTOR_BLOCK>>>(NUM_ROWS, d_row_ptr, d_cols, d_vals, d_x, d_y);
    checkCudaErrors(cudaGetLastError());
    checkCudaErrors(cudaMemcpy(h_y, d_y, NUM_ROWS * sizeof(float), cudaMemcpyDeviceToHost));
    for (int r = 0; r < NUM_ROWS; r++)
      if (!(fabs(h_y[r] - ref[r]) <= 1e-5 * (mag[r] + 1.0)) && errors++ < 10)
        printf("%s kernel, row %d: %f, expected %f\n", pass ? "vector" : "scalar", r, h_y[r], ref[r]);
  }
  printf("%d nonzeros\n", nnz);
  cudaFree(d_row_ptr); cudaFree(d_cols); cudaFree(d_vals); cudaFree(d_x); cudaFree(d_y);
  free(h_row_ptr); free(h_cols); free(h_vals); free(h_x); free(h_y); free(ref); free(mag);
  if (errors) { printf("Test failed\n"); return 1; }
  printf("Test passed\n");
  return 0;
}
