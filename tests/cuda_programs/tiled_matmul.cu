// Shared-memory tiled matrix multiplication C = A * B for sizes that are not
// multiples of the tile: each block loads TILE_WIDTH x TILE_WIDTH tiles of A and
// B (zero past the edges), synchronizes, accumulates, synchronizes again.
// Matrices are passed as float** handles allocated with cudaMalloc((void**)...).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define TILE_WIDTH 16

#define wbCheck(stmt) do { cudaError_t err = stmt; if (err != cudaSuccess) { \
  printf("Failed to run stmt %s: %s\n", #stmt, cudaGetErrorString(err)); return -1; } } while (0)

__global__ void matrixMultiplyShared(const float* A, const float* B, float* C, int numARows, int numAColumns,
                                     int numBColumns) {
  __shared__ float ds_A[TILE_WIDTH][TILE_WIDTH];
  __shared__ float ds_B[TILE_WIDTH][TILE_WIDTH];
  int bx = blockIdx.x, by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
  int Row = by * TILE_WIDTH + ty;
  int Col = bx * TILE_WIDTH + tx;
  float Pvalue = 0;
  for (int m = 0; m < (numAColumns - 1) / TILE_WIDTH + 1; ++m) {
    int aCol = m * TILE_WIDTH + tx, bRow = m * TILE_WIDTH + ty;
    ds_A[ty][tx] = (Row < numARows && aCol < numAColumns) ? A[Row * numAColumns + aCol] : 0.0f;
    ds_B[ty][tx] = (bRow < numAColumns && Col < numBColumns) ? B[bRow * numBColumns + Col] : 0.0f;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TILE_WIDTH; ++k) Pvalue += ds_A[ty][k] * ds_B[k][tx];
    __syncthreads();
  }
  if (Row < numARows && Col < numBColumns) C[Row * numBColumns + Col] = Pvalue;
}

int main() {
  const int numARows = 150, numAColumns = 100, numBRows = 100, numBColumns = 120;
  const int numCRows = numARows, numCColumns = numBColumns;
  float* hostA = (float*)malloc(numARows * numAColumns * sizeof(float));
  float* hostB = (float*)malloc(numBRows * numBColumns * sizeof(float));
  float* hostC = (float*)malloc(numCRows * numCColumns * sizeof(float));
  srand(11);
  for (int i = 0; i < numARows * numAColumns; i++) hostA[i] = (float)(rand() % 200 - 100) / 64.0f;
  for (int i = 0; i < numBRows * numBColumns; i++) hostB[i] = (float)(rand() % 200 - 100) / 64.0f;

  float *deviceA, *deviceB, *deviceC;
  wbCheck(cudaMalloc((void**)&deviceA, numARows * numAColumns * sizeof(float)));
  wbCheck(cudaMalloc((void**)&deviceB, numBRows * numBColumns * sizeof(float)));
  wbCheck(cudaMalloc((float**)&deviceC, numCRows * numCColumns * sizeof(float)));
  wbCheck(cudaMemcpy(deviceA, hostA, numARows * numAColumns * sizeof(float), cudaMemcpyHostToDevice));
  wbCheck(cudaMemcpy(deviceB, hostB, numBRows * numBColumns * sizeof(float), cudaMemcpyHostToDevice));

  dim3 dimGrid((numCColumns - 1) / TILE_WIDTH + 1, (numCRows - 1) / TILE_WIDTH + 1, 1);
  dim3 dimBlock(TILE_WIDTH, TILE_WIDTH, 1);
  matrixMultiplyShared<<<dimGrid, dimBlock>>>(deviceA, deviceB, deviceC, numARows, numAColumns, numBColumns);
  wbCheck(cudaGetLastError());
  wbCheck(cudaDeviceSynchronize());
  wbCheck(cudaMemcpy(hostC, deviceC, numCRows * numCColumns * sizeof(float), cudaMemcpyDeviceToHost));

  int errors = 0;
  for (int r = 0; r < numCRows; r++)
    for (int c = 0; c < numCColumns; c++) {
      double ref = 0;
      for (int k = 0; k < numAColumns; k++) ref += (double)hostA[r * numAColumns + k] * hostB[k * numBColumns + c];
      float got = hostC[r * numCColumns + c];
      if (fabs(got - ref) > 1e-4 * (1.0 + fabs(ref)) && errors++ < 10) printf("C[%d][%d] = %f, expected %f\n", r, c, got, ref);
    }
  cudaFree(deviceA); cudaFree(deviceB); cudaFree(deviceC);
  free(hostA); free(hostB); free(hostC);
  if (errors) { printf("Test failed\n"); return 1; }
  printf("Test passed\n");
  return 0;
}
