// A quantized (int8) matrix-vector product as inference code writes it: four
// int8 values packed per 32-bit word, __dp4a multiplying and accumulating four
// pairs at once, a warp per row reducing with __shfl_xor_sync, and the int32
// result dequantized by per-row scales. Exact integer comparison with the host
// (the float dequantization within a tolerance).
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define ROWS 512
#define COLS 1024  // a multiple of 4 * 32
#define WARPS_PER_BLOCK 4

#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { \
  fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); exit(1); } } while (0)

__global__ void gemv_int8(const int* __restrict__ A, const int* __restrict__ x, const float* __restrict__ scale,
                          int* acc_out, float* y) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x % 32;
  if (warp >= ROWS) return;  // whole warps leave together
  const int* row = A + (size_t)warp * (COLS / 4);
  int acc = 0;
  for (int k = lane; k < COLS / 4; k += 32) acc = __dp4a(__ldg(&row[k]), __ldg(&x[k]), acc);
  for (int offset = 16; offset > 0; offset >>= 1) acc += __shfl_xor_sync(0xffffffff, acc, offset);
  if (lane == 0) {
    acc_out[warp] = acc;
    y[warp] = acc * scale[warp];
  }
}

int main() {
  int8_t* h_A = (int8_t*)malloc(ROWS * COLS);
  int8_t h_x[COLS];
  float h_scale[ROWS];
  srand(8);
  for (int i = 0; i < ROWS * COLS; i++) h_A[i] = (int8_t)(rand() % 256 - 128);
  for (int k = 0; k < COLS; k++) h_x[k] = (int8_t)(rand() % 256 - 128);
  for (int r = 0; r < ROWS; r++) h_scale[r] = 1.0f / (64 + r % 37);
  int *d_A, *d_x, *d_acc;
  float *d_scale, *d_y;
  CHECK(cudaMalloc((void**)&d_A, ROWS * COLS));
  CHECK(cudaMalloc((void**)&d_x, COLS));
  CHECK(cudaMalloc((void**)&d_acc, ROWS * sizeof(int)));
  CHECK(cudaMalloc((void**)&d_scale, ROWS * sizeof(float)));
  CHECK(cudaMalloc((void**)&d_y, ROWS * sizeof(float)));
  CHECK(cudaMemcpy(d_A, h_A, ROWS * COLS, cudaMemcpyHostToDevice));  // bytes in order: little-endian packing
  CHECK(cudaMemcpy(d_x, h_x, COLS, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_scale, h_scale, ROWS * sizeof(float), cudaMemcpyHostToDevice));
  gemv_int8<<<ROWS / WARPS_PER_BLOCK, 32 * WARPS_PER_BLOCK>>>(d_A, d_x, d_scale, d_acc, d_y);
  CHECK(cudaGetLastError());
  int h_acc[ROWS];
  float h_y[ROWS];
  CHECK(cudaMemcpy(h_acc, d_acc, sizeof h_acc, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(h_y, d_y, sizeof h_y, cudaMemcpyDeviceToHost));
  int errors = 0;
  for (int r = 0; r < ROWS; r++) {
    int ref = 0;
    for (int k = 0; k < COLS; k++) ref += h_A[r * COLS + k] * h_x[k];
    if (h_acc[r] != ref && errors++ < 10) printf("row %d: %d, expected %d\n", r, h_acc[r], ref);
    if (fabsf(h_y[r] - ref * h_scale[r]) > 1e-5f * (1.0f + fabsf(ref * h_scale[r])) && errors++ < 10) printf("row %d: y %f\n", r, h_y[r]);
  }
  cudaFree(d_A); cudaFree(d_x); cudaFree(d_acc); cudaFree(d_scale); cudaFree(d_y);
  free(h_A);
  if (errors) { printf("Test failed\n"); return 1; }
  printf("Test passed\n");
  return 0;
}
