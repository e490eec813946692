// European option pricing with the Black-Scholes formula: one thread per option
// in a grid-stride loop, the cumulative normal distribution by the classic
// polynomial approximation (expf, logf, sqrtf, __fdividef), call and put
// prices written side by side as float2. The host prices in double with erfc.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define OPT_N 40000
#define RISKFREE 0.02f
#define VOLATILITY 0.30f

#define CUDA_CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  fprintf(stderr, "%s (%s:%d)\n", cudaGetErrorString(e_), __FILE__, __LINE__); exit(1); } } while (0)

__device__ inline float cnd(float d) {
  const float A1 = 0.31938153f, A2 = -0.356563782f, A3 = 1.781477937f, A4 = -1.821255978f, A5 = 1.330274429f;
  const float RSQRT2PI = 0.39894228040143267793994605993438f;
  float K = __fdividef(1.0f, (1.0f + 0.2316419f * fabsf(d)));
  float c = RSQRT2PI * expf(-0.5f * d * d) * (K * (A1 + K * (A2 + K * (A3 + K * (A4 + K * A5)))));
  if (d > 0) c = 1.0f - c;
  return c;
}

__global__ void black_scholes(float2* __restrict__ prices, const float* __restrict__ stock,
                              const float* __restrict__ strike, const float* __restrict__ years, float r, float v, int n) {
  for (int opt = blockDim.x * blockIdx.x + threadIdx.x; opt < n; opt += blockDim.x * gridDim.x) {
    float S = stock[opt], X = strike[opt], T = years[opt];
    float sqrtT = sqrtf(T);
    float d1 = __fdividef(logf(S / X) + (r + 0.5f * v * v) * T, v * sqrtT);
    float d2 = d1 - v * sqrtT;
    float cndd1 = cnd(d1), cndd2 = cnd(d2);
    float expRT = expf(-r * T);
    float call = S * cndd1 - X * expRT * cndd2;
    float put = X * expRT * (1.0f - cndd2) - S * (1.0f - cndd1);
    prices[opt] = make_float2(call, put);
  }
}

static double cnd_exact(double d) { return 0.5 * erfc(-d / sqrt(2.0)); }

int main() {
  float *h_S = (float*)malloc(OPT_N * sizeof(float)), *h_X = (float*)malloc(OPT_N * sizeof(float));
  float* h_T = (float*)malloc(OPT_N * sizeof(float));
  float2* h_prices = (float2*)malloc(OPT_N * sizeof(float2));
  srand(5347);
  for (int i = 0; i < OPT_N; i++) {
    h_S[i] = 5.0f + 25.0f * rand() / (float)RAND_MAX;
    h_X[i] = 1.0f + 99.0f * rand() / (float)RAND_MAX;
    h_T[i] = 0.25f + 9.75f * rand() / (float)RAND_MAX;
  }
  float *d_S, *d_X, *d_T;
  float2* d_prices;
  CUDA_CHECK(cudaMalloc((void**)&d_S, OPT_N * sizeof(float)));
  CUDA_CHECK(cudaMalloc((void**)&d_X, OPT_N * sizeof(float)));
  CUDA_CHECK(cudaMalloc((void**)&d_T, OPT_N * sizeof(float)));
  CUDA_CHECK(cudaMalloc((void**)&d_prices, OPT_N * sizeof(float2)));
  CUDA_CHECK(cudaMemcpy(d_S, h_S, OPT_N * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_X, h_X, OPT_N * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_T, h_T, OPT_N * sizeof(float), cudaMemcpyHostToDevice));
  black_scholes<<<120, 128>>>(d_prices, d_S, d_X, d_T, RISKFREE, VOLATILITY, OPT_N);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(h_prices, d_prices, OPT_N * sizeof(float2), cudaMemcpyDeviceToHost));

  double sum_err = 0, sum_ref = 0, max_err = 0;
  for (int i = 0; i < OPT_N; i++) {
    double S = h_S[i], X = h_X[i], T = h_T[i], r = RISKFREE, v = VOLATILITY;
    double d1 = (log(S / X) + (r + 0.5 * v * v) * T) / (v * sqrt(T)), d2 = d1 - v * sqrt(T);
    double call = S * cnd_exact(d1) - X * exp(-r * T) * cnd_exact(d2);
    double put = X * exp(-r * T) * cnd_exact(-d2) - S * cnd_exact(-d1);
    double e = fabs(h_prices[i].x - call) + fabs(h_prices[i].y - put);
    sum_err += e;
    sum_ref += fabs(call) + fabs(put);
    if (e > max_err) max_err = e;
  }
  double l1 = sum_err / sum_ref;  // the polynomial approximates the normal CDF to ~1e-7
  printf("L1 norm: %e, max abs error: %e\n", l1, max_err);
  cudaFree(d_S); cudaFree(d_X); cudaFree(d_T); cudaFree(d_prices);
  free(h_S); free(h_X); free(h_T); free(h_prices);
  if (!(l1 < 1e-5 && max_err < 1e-3)) { printf("Test failed\n"); return 1; }
  printf("Test passed\n");
  return 0;
}
