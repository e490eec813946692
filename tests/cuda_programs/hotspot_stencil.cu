// Thermal simulation of a chip (the hotspot benchmark's model): each step, every
// cell's temperature moves towards its four neighbours, the ambient temperature
// and its own power dissipation. A 16 x 16 block stages its tile plus a one-cell
// halo in shared memory; the host ping-pongs two buffers and checks a CPU run.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define BLOCK_SIZE 16
#define GRID_ROWS 128
#define GRID_COLS 128
#define ITERATIONS 12

#define checkCuda(x) check_cuda((x), #x, __LINE__)
static void check_cuda(cudaError_t e, const char* what, int line) {
  if (e != cudaSuccess) {
    printf("line %d: %s failed: %s\n", line, what, cudaGetErrorString(e));
    exit(1);
  }
}

struct Coeffs { float cap_inv, rx_inv, ry_inv, rz_inv, amb; };

__global__ void hotspot_step(const float* power, const float* temp_src, float* temp_dst, int rows,
                             int cols, Coeffs k) {
  __shared__ float tile[BLOCK_SIZE + 2][BLOCK_SIZE + 2];
  int tx = threadIdx.x, ty = threadIdx.y;
  int c = blockIdx.x * BLOCK_SIZE + tx;
  int r = blockIdx.y * BLOCK_SIZE + ty;
  int cc = min(c, cols - 1), rr = min(r, rows - 1);  // clamp: the chip's edge reflects
  tile[ty + 1][tx + 1] = temp_src[rr * cols + cc];
  if (tx == 0) tile[ty + 1][0] = temp_src[rr * cols + max(cc - 1, 0)];
  if (tx == BLOCK_SIZE - 1) tile[ty + 1][BLOCK_SIZE + 1] = temp_src[rr * cols + min(cc + 1, cols - 1)];
  if (ty == 0) tile[0][tx + 1] = temp_src[max(rr - 1, 0) * cols + cc];
  if (ty == BLOCK_SIZE - 1) tile[BLOCK_SIZE + 1][tx + 1] = temp_src[min(rr + 1, rows - 1) * cols + cc];
  __syncthreads();
  if (r < rows && c < cols) {
    float t = tile[ty + 1][tx + 1];
    // at the grid's last row/column the halo loaded above is the clamped cell itself
    float n = tile[ty][tx + 1], s = (r == rows - 1) ? t : tile[ty + 2][tx + 1];
    float w = tile[ty + 1][tx], e = (c == cols - 1) ? t : tile[ty + 1][tx + 2];
    float delta = k.cap_inv * (power[r * cols + c] + (s + n - 2.0f * t) * k.ry_inv +
                               (e + w - 2.0f * t) * k.rx_inv + (k.amb - t) * k.rz_inv);
    temp_dst[r * cols + c] = t + delta;
  }
}

static void hotspot_cpu(const float* power, float* src, float* dst, int rows, int cols, Coeffs k) {
  for (int it = 0; it < ITERATIONS; it++) {
    for (int r = 0; r < rows; r++)
      for (int c = 0; c < cols; c++) {
        float t = src[r * cols + c];
        float n = src[(r > 0 ? r - 1 : 0) * cols + c], s = src[(r < rows - 1 ? r + 1 : r) * cols + c];
        float w = src[r * cols + (c > 0 ? c - 1 : 0)], e = src[r * cols + (c < cols - 1 ? c + 1 : c)];
        dst[r * cols + c] = t + k.cap_inv * (power[r * cols + c] + (s + n - 2.0f * t) * k.ry_inv +
                                             (e + w - 2.0f * t) * k.rx_inv + (k.amb - t) * k.rz_inv);
      }
    float* tmp = src; src = dst; dst = tmp;
  }
}

int main() {
  const int size = GRID_ROWS * GRID_COLS;
  float* h_power = (float*)malloc(size * sizeof(float));
  float* h_temp = (float*)malloc(size * sizeof(float));
  float* h_ref[2] = {(float*)malloc(size * sizeof(float)), (float*)malloc(size * sizeof(float))};
  float* h_out = (float*)malloc(size * sizeof(float));
  srand(17);
  for (int i = 0; i < size; i++) {
    h_temp[i] = 320.0f + (float)(rand() % 1000) / 50.0f;
    h_power[i] = (float)(rand() % 1000) / 2000.0f;
    h_ref[0][i] = h_temp[i];
  }
  Coeffs k = {0.05f, 0.1f, 0.1f, 0.002f, 300.0f};

  float *d_power, *d_temp[2];
  checkCuda(cudaMalloc((void**)&d_power, size * sizeof(float)));
  checkCuda(cudaMalloc((void**)&d_temp[0], size * sizeof(float)));
  checkCuda(cudaMalloc((void**)&d_temp[1], size * sizeof(float)));
  checkCuda(cudaMemcpy(d_power, h_power, size * sizeof(float), cudaMemcpyHostToDevice));
  checkCuda(cudaMemcpy(d_temp[0], h_temp, size * sizeof(float), cudaMemcpyHostToDevice));

  dim3 dimBlock(BLOCK_SIZE, BLOCK_SIZE);
  dim3 dimGrid((GRID_COLS + BLOCK_SIZE - 1) / BLOCK_SIZE, (GRID_ROWS + BLOCK_SIZE - 1) / BLOCK_SIZE);
  int src = 0;
  for (int it = 0; it < ITERATIONS; it++, src = 1 - src)
    hotspot_step<<<dimGrid, dimBlock>>>(d_power, d_temp[src], d_temp[1 - src], GRID_ROWS, GRID_COLS, k);
  checkCuda(cudaGetLastError());
  checkCuda(cudaDeviceSynchronize());
  checkCuda(cudaMemcpy(h_out, d_temp[src], size * sizeof(float), cudaMemcpyDeviceToHost));

  hotspot_cpu(h_power, h_ref[0], h_ref[1], GRID_ROWS, GRID_COLS, k);
  const float* ref = h_ref[ITERATIONS % 2];
  int errors = 0;
  for (int i = 0; i < size; i++)
    if (fabsf(h_out[i] - ref[i]) > 1e-3f * fabsf(ref[i]) && errors++ < 10)
      printf("cell %d: %f, expected %f\n", i, h_out[i], ref[i]);
  cudaFree(d_power); cudaFree(d_temp[0]); cudaFree(d_temp[1]);
  free(h_power); free(h_temp); free(h_ref[0]); free(h_ref[1]); free(h_out);
  if (errors) { printf("Test failed\n"); return 1; }
  printf("Test passed\n");
  return 0;
}
