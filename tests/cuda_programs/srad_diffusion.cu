// Speckle-reducing anisotropic diffusion (SRAD) of a noisy image: per iteration,
// the image statistics come from per-block shared-memory reductions, one kernel
// computes the directional derivatives and the diffusion coefficient, a second
// applies the divergence. The host runs the same algorithm and compares.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define ROWS 128
#define COLS 128
#define BLOCK 16
#define RED_THREADS 256
#define NITER 4
#define LAMBDA 0.5f

#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { \
  fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); exit(1); } } while (0)

__global__ void extract(const unsigned char* img, float* J, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) J[i] = expf(img[i] / 255.0f);
}

__global__ void partial_stats(const float* J, float2* partial, int n) {
  __shared__ float s_sum[RED_THREADS], s_sq[RED_THREADS];
  int i = blockIdx.x * RED_THREADS + threadIdx.x;
  float v = i < n ? J[i] : 0.0f;
  s_sum[threadIdx.x] = v;
  s_sq[threadIdx.x] = v * v;
  __syncthreads();
  for (int s = RED_THREADS / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) {
      s_sum[threadIdx.x] += s_sum[threadIdx.x + s];
      s_sq[threadIdx.x] += s_sq[threadIdx.x + s];
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) partial[blockIdx.x] = make_float2(s_sum[0], s_sq[0]);
}

__global__ void srad_coeff(const float* J, float* dN, float* dS, float* dW, float* dE, float* C, float q0sqr) {
  int c = blockIdx.x * BLOCK + threadIdx.x, r = blockIdx.y * BLOCK + threadIdx.y;
  int k = r * COLS + c;
  float Jc = J[k];
  float n = J[(r == 0 ? 0 : r - 1) * COLS + c] - Jc, s = J[(r == ROWS - 1 ? r : r + 1) * COLS + c] - Jc;
  float w = J[r * COLS + (c == 0 ? 0 : c - 1)] - Jc, e = J[r * COLS + (c == COLS - 1 ? c : c + 1)] - Jc;
  float G2 = __fdividef(n * n + s * s + w * w + e * e, Jc * Jc);
  float L = (n + s + w + e) / Jc;
  float num = 0.5f * G2 - (1.0f / 16.0f) * (L * L);
  float den = 1.0f + 0.25f * L;
  float qsqr = num / (den * den);
  den = (qsqr - q0sqr) / (q0sqr * (1.0f + q0sqr));
  float coeff = 1.0f / (1.0f + den);
  C[k] = fminf(fmaxf(coeff, 0.0f), 1.0f);
  dN[k] = n; dS[k] = s; dW[k] = w; dE[k] = e;
}

__global__ void srad_update(float* J, const float* dN, const float* dS, const float* dW, const float* dE, const float* C) {
  int c = blockIdx.x * BLOCK + threadIdx.x, r = blockIdx.y * BLOCK + threadIdx.y;
  int k = r * COLS + c;
  float cS = C[(r == ROWS - 1 ? r : r + 1) * COLS + c], cE = C[r * COLS + (c == COLS - 1 ? c : c + 1)];
  float D = C[k] * dN[k] + cS * dS[k] + C[k] * dW[k] + cE * dE[k];
  J[k] = J[k] + 0.25f * LAMBDA * D;
}

static void srad_cpu(float* J, float* C, float* d4) {
  const int n = ROWS * COLS;
  for (int it = 0; it < NITER; it++) {
    double sum = 0, sum2 = 0;
    for (int i = 0; i < n; i++) { sum += J[i]; sum2 += (double)J[i] * J[i]; }
    float mean = (float)(sum / n), var = (float)(sum2 / n) - mean * mean, q0sqr = var / (mean * mean);
    for (int r = 0; r < ROWS; r++)
      for (int c = 0; c < COLS; c++) {
        int k = r * COLS + c;
        float Jc = J[k], *d = &d4[4 * k];
        d[0] = J[(r == 0 ? 0 : r - 1) * COLS + c] - Jc; d[1] = J[(r == ROWS - 1 ? r : r + 1) * COLS + c] - Jc;
        d[2] = J[r * COLS + (c == 0 ? 0 : c - 1)] - Jc; d[3] = J[r * COLS + (c == COLS - 1 ? c : c + 1)] - Jc;
        float G2 = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + d[3] * d[3]) / (Jc * Jc);
        float L = (d[0] + d[1] + d[2] + d[3]) / Jc;
        float qsqr = (0.5f * G2 - L * L / 16.0f) / ((1.0f + 0.25f * L) * (1.0f + 0.25f * L));
        float coeff = 1.0f / (1.0f + (qsqr - q0sqr) / (q0sqr * (1.0f + q0sqr)));
        C[k] = coeff < 0 ? 0 : coeff > 1 ? 1 : coeff;
      }
    for (int r = 0; r < ROWS; r++)
      for (int c = 0; c < COLS; c++) {
        int k = r * COLS + c;
        float cS = C[(r == ROWS - 1 ? r : r + 1) * COLS + c], cE = C[r * COLS + (c == COLS - 1 ? c : c + 1)];
        float* d = &d4[4 * k];
        J[k] += 0.25f * LAMBDA * (C[k] * d[0] + cS * d[1] + C[k] * d[2] + cE * d[3]);
      }
  }
}

int main() {
  const int n = ROWS * COLS, nblocks = (n + RED_THREADS - 1) / RED_THREADS;
  unsigned char* img = (unsigned char*)malloc(n);
  float *h_J = (float*)malloc(n * sizeof(float)), *ref = (float*)malloc(n * sizeof(float));
  float *h_C = (float*)malloc(n * sizeof(float)), *h_d4 = (float*)malloc(4 * n * sizeof(float));
  float2* h_partial = (float2*)malloc(nblocks * sizeof(float2));
  srand(5);
  for (int i = 0; i < n; i++) {
    img[i] = (unsigned char)(rand() % 256);
    ref[i] = expf(img[i] / 255.0f);
  }
  unsigned char* d_img;
  float *d_J, *d_C, *d_N, *d_S, *d_W, *d_E;
  float2* d_partial;
  CHECK(cudaMalloc((void**)&d_img, n));
  CHECK(cudaMalloc((void**)&d_J, n * sizeof(float)));
  CHECK(cudaMalloc((void**)&d_C, n * sizeof(float)));
  CHECK(cudaMalloc((void**)&d_N, n * sizeof(float)));
  CHECK(cudaMalloc((void**)&d_S, n * sizeof(float)));
  CHECK(cudaMalloc((void**)&d_W, n * sizeof(float)));
  CHECK(cudaMalloc((void**)&d_E, n * sizeof(float)));
  CHECK(cudaMalloc((void**)&d_partial, nblocks * sizeof(float2)));
  CHECK(cudaMemcpy(d_img, img, n, cudaMemcpyHostToDevice));
  extract<<<nblocks, RED_THREADS>>>(d_img, d_J, n);
  dim3 threads(BLOCK, BLOCK), grid(COLS / BLOCK, ROWS / BLOCK);
  for (int it = 0; it < NITER; it++) {
    partial_stats<<<nblocks, RED_THREADS>>>(d_J, d_partial, n);
    CHECK(cudaMemcpy(h_partial, d_partial, nblocks * sizeof(float2), cudaMemcpyDeviceToHost));
    double sum = 0, sum2 = 0;
    for (int b = 0; b < nblocks; b++) { sum += h_partial[b].x; sum2 += h_partial[b].y; }
    float mean = (float)(sum / n), var = (float)(sum2 / n) - mean * mean;
    srad_coeff<<<grid, threads>>>(d_J, d_N, d_S, d_W, d_E, d_C, var / (mean * mean));
    srad_update<<<grid, threads>>>(d_J, d_N, d_S, d_W, d_E, d_C);
  }
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(h_J, d_J, n * sizeof(float), cudaMemcpyDeviceToHost));
  srad_cpu(ref, h_C, h_d4);
  int errors = 0;
  for (int i = 0; i < n; i++)
    if (!(fabsf(h_J[i] - ref[i]) <= 1e-3f * fabsf(ref[i])) && errors++ < 10) printf("pixel %d: %f, expected %f\n", i, h_J[i], ref[i]);
  cudaFree(d_img); cudaFree(d_J); cudaFree(d_C); cudaFree(d_N); cudaFree(d_S); cudaFree(d_W); cudaFree(d_E); cudaFree(d_partial);
  free(img); free(h_J); free(ref); free(h_C); free(h_d4); free(h_partial);
  if (errors) { printf("Test failed\n"); return 1; }
  printf("Test passed\n");
  return 0;
}
