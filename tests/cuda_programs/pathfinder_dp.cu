// Minimum-cost path down a grid of weights (the pathfinder benchmark's dynamic
// program): each row's cost is its weight plus the least of the three costs above.
// Each launch advances PYRAMID_HEIGHT rows inside shared memory; a block loads a
// halo of PYRAMID_HEIGHT columns each side, so the valid region shrinks by one
// column per side and step, and writes only the columns it owns.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define BLOCK_SIZE 256
#define PYRAMID_HEIGHT 8
#define ROWS 200
#define COLS 5000
#define BIG (1 << 29)
#define IN_RANGE(x, lo, hi) ((x) >= (lo) && (x) <= (hi))

#define CHECK(e) do { cudaError_t r_ = (e); if (r_ != cudaSuccess) { \
  fprintf(stderr, "%s at %s:%d\n", cudaGetErrorString(r_), __FILE__, __LINE__); exit(1); } } while (0)

__global__ void dynproc(int steps, const int* wall, const int* src, int* dst, int cols, int start_row) {
  __shared__ int prev[BLOCK_SIZE];
  __shared__ int result[BLOCK_SIZE];
  int tx = threadIdx.x;
  int owned = BLOCK_SIZE - 2 * PYRAMID_HEIGHT;
  int xidx = blockIdx.x * owned - PYRAMID_HEIGHT + tx;
  bool inside = IN_RANGE(xidx, 0, cols - 1);
  prev[tx] = inside ? src[xidx] : BIG;
  __syncthreads();
  bool computed = false;
  for (int i = 0; i < steps; i++) {
    computed = false;
    if (IN_RANGE(tx, i + 1, BLOCK_SIZE - 2 - i) && inside) {
      int left = prev[tx - 1], up = prev[tx], right = prev[tx + 1];
      result[tx] = min(left, min(up, right)) + wall[(start_row + i) * cols + xidx];
      computed = true;
    }
    __syncthreads();
    if (i == steps - 1) break;
    if (computed) prev[tx] = result[tx];
    __syncthreads();
  }
  if (computed && IN_RANGE(tx, PYRAMID_HEIGHT, BLOCK_SIZE - 1 - PYRAMID_HEIGHT)) dst[xidx] = result[tx];
}

int main() {
  int* wall = (int*)malloc(sizeof(int) * ROWS * COLS);
  srand(9);
  for (int i = 0; i < ROWS * COLS; i++) wall[i] = rand() % 10;

  int *d_wall, *d_result[2];
  CHECK(cudaMalloc((void**)&d_wall, sizeof(int) * ROWS * COLS));
  CHECK(cudaMalloc((void**)&d_result[0], sizeof(int) * COLS));
  CHECK(cudaMalloc((void**)&d_result[1], sizeof(int) * COLS));
  CHECK(cudaMemcpy(d_wall, wall, sizeof(int) * ROWS * COLS, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_result[0], wall, sizeof(int) * COLS, cudaMemcpyHostToDevice));  // row 0

  int owned = BLOCK_SIZE - 2 * PYRAMID_HEIGHT;
  dim3 dimBlock(BLOCK_SIZE);
  dim3 dimGrid((COLS + owned - 1) / owned);
  int src = 0;
  for (int t = 1; t < ROWS; t += PYRAMID_HEIGHT) {
    int steps = ROWS - t < PYRAMID_HEIGHT ? ROWS - t : PYRAMID_HEIGHT;
    dynproc<<<dimGrid, dimBlock>>>(steps, d_wall, d_result[src], d_result[1 - src], COLS, t);
    src = 1 - src;
  }
  CHECK(cudaGetLastError());
  int* result = (int*)malloc(sizeof(int) * COLS);
  CHECK(cudaMemcpy(result, d_result[src], sizeof(int) * COLS, cudaMemcpyDeviceToHost));

  int* a = (int*)malloc(sizeof(int) * COLS);
  int* b = (int*)malloc(sizeof(int) * COLS);
  for (int c = 0; c < COLS; c++) a[c] = wall[c];
  for (int r = 1; r < ROWS; r++) {
    for (int c = 0; c < COLS; c++) {
      int m = a[c];
      if (c > 0 && a[c - 1] < m) m = a[c - 1];
      if (c < COLS - 1 && a[c + 1] < m) m = a[c + 1];
      b[c] = m + wall[r * COLS + c];
    }
    int* t = a; a = b; b = t;
  }
  int errors = 0;
  for (int c = 0; c < COLS; c++)
    if (result[c] != a[c] && errors++ < 10) printf("column %d: %d, expected %d\n", c, result[c], a[c]);
  cudaFree(d_wall); cudaFree(d_result[0]); cudaFree(d_result[1]);
  free(wall); free(result); free(a); free(b);
  if (errors) { printf("Test failed\n"); return 1; }
  printf("Test passed\n");
  return 0;
}
