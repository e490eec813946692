// 2-D convolution with the mask in __constant__ memory: each block of
// (O_TILE_WIDTH + MASK_WIDTH - 1)^2 threads loads an input tile with its halo
// (zeros outside the image) into shared memory, and only the inner
// O_TILE_WIDTH^2 threads compute an output pixel. Host reference, tolerance.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define MASK_WIDTH 5
#define MASK_RADIUS (MASK_WIDTH / 2)
#define O_TILE_WIDTH 12
#define BLOCK_WIDTH (O_TILE_WIDTH + MASK_WIDTH - 1)
#define IMG_W 250
#define IMG_H 190

#define CUDA_CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
  fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); exit(1); } } while (0)

__constant__ float M[MASK_WIDTH][MASK_WIDTH];

__global__ void convolution_2D_tiled(const float* __restrict__ P, float* N, int height, int width, int pitch) {
  __shared__ float Ns[BLOCK_WIDTH][BLOCK_WIDTH];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row_o = blockIdx.y * O_TILE_WIDTH + ty;
  int col_o = blockIdx.x * O_TILE_WIDTH + tx;
  int row_i = row_o - MASK_RADIUS;
  int col_i = col_o - MASK_RADIUS;
  if (row_i >= 0 && row_i < height && col_i >= 0 && col_i < width)
    Ns[ty][tx] = P[row_i * pitch + col_i];
  else
    Ns[ty][tx] = 0.0f;
  __syncthreads();
  if (ty < O_TILE_WIDTH && tx < O_TILE_WIDTH) {
    float output = 0.0f;
    for (int i = 0; i < MASK_WIDTH; i++)
      for (int j = 0; j < MASK_WIDTH; j++) output += M[i][j] * Ns[i + ty][j + tx];
    if (row_o < height && col_o < width) N[row_o * width + col_o] = output;
  }
}

int main() {
  float h_mask[MASK_WIDTH][MASK_WIDTH];
  float sum = 0;
  for (int i = 0; i < MASK_WIDTH; i++)
    for (int j = 0; j < MASK_WIDTH; j++) sum += h_mask[i][j] = expf(-(float)((i - 2) * (i - 2) + (j - 2) * (j - 2)) / 4.0f);
  for (int i = 0; i < MASK_WIDTH; i++)
    for (int j = 0; j < MASK_WIDTH; j++) h_mask[i][j] /= sum;
  const int pitch = 256;  // padded rows, as an image loader would give them
  float* h_in = (float*)calloc(IMG_H * pitch, sizeof(float));
  float* h_out = (float*)malloc(IMG_H * IMG_W * sizeof(float));
  srand(8);
  for (int r = 0; r < IMG_H; r++)
    for (int c = 0; c < IMG_W; c++) h_in[r * pitch + c] = (float)(rand() % 256);

  float *d_in, *d_out;
  CUDA_CHECK(cudaMalloc((void**)&d_in, IMG_H * pitch * sizeof(float)));
  CUDA_CHECK(cudaMalloc((void**)&d_out, IMG_H * IMG_W * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_in, h_in, IMG_H * pitch * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpyToSymbol(M, h_mask, MASK_WIDTH * MASK_WIDTH * sizeof(float)));
  dim3 dimBlock(BLOCK_WIDTH, BLOCK_WIDTH);
  dim3 dimGrid((IMG_W - 1) / O_TILE_WIDTH + 1, (IMG_H - 1) / O_TILE_WIDTH + 1, 1);
  convolution_2D_tiled<<<dimGrid, dimBlock>>>(d_in, d_out, IMG_H, IMG_W, pitch);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(h_out, d_out, IMG_H * IMG_W * sizeof(float), cudaMemcpyDeviceToHost));

  int errors = 0;
  for (int r = 0; r < IMG_H; r++)
    for (int c = 0; c < IMG_W; c++) {
      float ref = 0;
      for (int i = 0; i < MASK_WIDTH; i++)
        for (int j = 0; j < MASK_WIDTH; j++) {
          int rr = r + i - MASK_RADIUS, cc = c + j - MASK_RADIUS;
          if (rr >= 0 && rr < IMG_H && cc >= 0 && cc < IMG_W) ref += h_mask[i][j] * h_in[rr * pitch + cc];
        }
      if (fabsf(h_out[r * IMG_W + c] - ref) > 1e-3f && errors++ < 10)
        printf("pixel (%d,%d): %f, expected %f\n", r, c, h_out[r * IMG_W + c], ref);
    }
  cudaFree(d_in); cudaFree(d_out);
  free(h_in); free(h_out);
  if (errors) { printf("Test failed\n"); return 1; }
  printf("Test passed\n");
  return 0;
}
