// Interval arithmetic with directed rounding, the way verified-computing codes
// use the GPU: lower bounds rounded down (__fadd_rd, __fmul_rd, __fdiv_rd,
// __fsqrt_rd), upper bounds rounded up (the _ru forms). Each thread encloses
// sqrt(a) with interval Newton steps and encloses p(x) = x^3 - 2x + 1/3 over a
// small interval by Horner's rule; the host checks in double that every true
// value lies inside its enclosure and that the enclosures are tight.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define N 4096
#define THREADS 128

#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { \
  printf("%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); exit(1); } } while (0)

struct interval { float lo, hi; };

__device__ interval add(interval a, interval b) { return {__fadd_rd(a.lo, b.lo), __fadd_ru(a.hi, b.hi)}; }
__device__ interval sub(interval a, interval b) { return {__fsub_rd(a.lo, b.hi), __fsub_ru(a.hi, b.lo)}; }
__device__ interval mul(interval a, interval b) {
  float l = fminf(fminf(__fmul_rd(a.lo, b.lo), __fmul_rd(a.lo, b.hi)), fminf(__fmul_rd(a.hi, b.lo), __fmul_rd(a.hi, b.hi)));
  float h = fmaxf(fmaxf(__fmul_ru(a.lo, b.lo), __fmul_ru(a.lo, b.hi)), fmaxf(__fmul_ru(a.hi, b.lo), __fmul_ru(a.hi, b.hi)));
  return {l, h};
}
__device__ interval div_pos(interval a, interval b) {  // b > 0
  float l = fminf(__fdiv_rd(a.lo, b.lo), __fdiv_rd(a.lo, b.hi)), h = fmaxf(__fdiv_ru(a.hi, b.lo), __fdiv_ru(a.hi, b.hi));
  return {l, h};
}

__global__ void enclose(const float* a, const float* x, float width, interval* roots, interval* poly) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= N) return;
  // sqrt(a) lies in [__fsqrt_rd(a), __fsqrt_ru(a)]; widen it, then tighten with interval Newton:
  // X <- (m - (m^2 - a) / (2X)) intersected with X, m the midpoint
  interval A = {a[i], a[i]};
  interval X = {__fmul_rd(__fsqrt_rd(a[i]), 0.9f), __fmul_ru(__fsqrt_ru(a[i]), 1.1f)};
  for (int it = 0; it < 6; it++) {
    float m = 0.5f * (X.lo + X.hi);
    interval M = {m, m};
    interval N2 = sub(M, div_pos(sub(mul(M, M), A), add(X, X)));
    X = {fmaxf(X.lo, N2.lo), fminf(X.hi, N2.hi)};
  }
  roots[i] = X;
  interval Xp = {x[i], __fadd_ru(x[i], width)};
  interval third = {__fdiv_rd(1.0f, 3.0f), __fdiv_ru(1.0f, 3.0f)};
  interval two = {2.0f, 2.0f};
  interval p = add(sub(mul(mul(Xp, Xp), Xp), mul(two, Xp)), third);
  poly[i] = p;
}

int main() {
  float *h_a = (float*)malloc(N * sizeof(float)), *h_x = (float*)malloc(N * sizeof(float));
  srand(1618);
  for (int i = 0; i < N; i++) {
    h_a[i] = 0.01f + (float)rand() / (float)RAND_MAX * 1000.0f;
    h_x[i] = (float)rand() / (float)RAND_MAX * 4.0f - 2.0f;
  }
  const float width = 1e-3f;
  float *d_a, *d_x;
  interval *d_roots, *d_poly;
  CHECK(cudaMalloc((void**)&d_a, N * sizeof(float)));
  CHECK(cudaMalloc((void**)&d_x, N * sizeof(float)));
  CHECK(cudaMalloc((void**)&d_roots, N * sizeof(interval)));
  CHECK(cudaMalloc((void**)&d_poly, N * sizeof(interval)));
  CHECK(cudaMemcpy(d_a, h_a, N * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_x, h_x, N * sizeof(float), cudaMemcpyHostToDevice));
  enclose<<<(N + THREADS - 1) / THREADS, THREADS>>>(d_a, d_x, width, d_roots, d_poly);
  CHECK(cudaGetLastError());
  interval *roots = (interval*)malloc(N * sizeof(interval)), *poly = (interval*)malloc(N * sizeof(interval));
  CHECK(cudaMemcpy(roots, d_roots, N * sizeof(interval), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(poly, d_poly, N * sizeof(interval), cudaMemcpyDeviceToHost));
  int errors = 0;
  for (int i = 0; i < N; i++) {
    double r = sqrt((double)h_a[i]);
    if (!(roots[i].lo <= r && r <= roots[i].hi) || roots[i].hi - roots[i].lo > 4e-6 * r) {
      if (errors++ < 10) printf("sqrt(%g) = %.9f, enclosure [%.9f, %.9f]\n", h_a[i], r, roots[i].lo, roots[i].hi);
    }
    double lo = h_x[i], hi = (double)h_x[i] + width;
    for (int s = 0; s <= 8; s++) {  // samples of the true polynomial on the interval
      double t = lo + (hi - lo) * s / 8, p = t * t * t - 2 * t + 1.0 / 3.0;
      if (!(poly[i].lo <= p && p <= poly[i].hi) && errors++ < 10) printf("p(%.9f) = %.9f outside [%.9f, %.9f]\n", t, p, poly[i].lo, poly[i].hi);
    }
    if (poly[i].hi - poly[i].lo > 0.05) errors++;
  }
  cudaFree(d_a); cudaFree(d_x); cudaFree(d_roots); cudaFree(d_poly);
  free(h_a); free(h_x); free(roots); free(poly);
  if (errors) { printf("Test failed\n"); return 1; }
  printf("Test passed\n");
  return 0;
}
