// Pricing a European call by Monte Carlo with quasi-random normals from the
// inverse normal CDF (normcdfinvf on stratified uniforms, so the estimate is
// deterministic), against the closed form with normcdff; the payoffs are summed
// per block in shared memory. erfinvf and erfcinvf are checked against
// normcdfinvf, from which they differ by a scale. Host reference in double.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define PATHS (1 << 16)
#define THREADS 256
#define OPTIONS 4

#define CUDA_CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

struct Option { float S, X, T, r, v; };

__global__ void mc_call(const Option* opts, float* block_sums, float* inverse_gap) {
  __shared__ float payoff[THREADS];
  Option o = opts[blockIdx.y];
  int path = blockIdx.x * blockDim.x + threadIdx.x;
  float u = (path + 0.5f) / PATHS;  // stratified uniforms in (0, 1)
  float z = normcdfinvf(u);
  float ST = o.S * expf((o.r - 0.5f * o.v * o.v) * o.T + o.v * sqrtf(o.T) * z);
  payoff[threadIdx.x] = fmaxf(ST - o.X, 0.0f);
  if (blockIdx.y == 0) {  // normcdfinv(u) = sqrt(2) erfinv(2u - 1) = -sqrt(2) erfcinv(2u)
    float gap = fabsf(z - 1.41421356f * erfinvf(2.0f * u - 1.0f)) + fabsf(z + 1.41421356f * erfcinvf(2.0f * u));
    inverse_gap[path] = gap;
  }
  __syncthreads();
  for (int s = THREADS / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) payoff[threadIdx.x] += payoff[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) block_sums[blockIdx.y * gridDim.x + blockIdx.x] = payoff[0];
}

__global__ void closed_form(const Option* opts, float* price) {
  Option o = opts[threadIdx.x];
  float d1 = (logf(o.S / o.X) + (o.r + 0.5f * o.v * o.v) * o.T) / (o.v * sqrtf(o.T));
  float d2 = d1 - o.v * sqrtf(o.T);
  price[threadIdx.x] = o.S * normcdff(d1) - o.X * expf(-o.r * o.T) * normcdff(d2);
}

int main() {
  Option h_opts[OPTIONS] = {{100, 100, 1, 0.05f, 0.2f}, {50, 60, 0.5f, 0.01f, 0.35f}, {30, 25, 2, 0.03f, 0.25f}, {80, 120, 3, 0.02f, 0.4f}};
  const int blocks = PATHS / THREADS;
  Option* d_opts;
  float *d_sums, *d_gap, *d_price;
  CUDA_CHECK(cudaMalloc((void**)&d_opts, sizeof(h_opts)));
  CUDA_CHECK(cudaMalloc((void**)&d_sums, OPTIONS * blocks * sizeof(float)));
  CUDA_CHECK(cudaMalloc((void**)&d_gap, PATHS * sizeof(float)));
  CUDA_CHECK(cudaMalloc((void**)&d_price, OPTIONS * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_opts, h_opts, sizeof(h_opts), cudaMemcpyHostToDevice));
  mc_call<<<dim3(blocks, OPTIONS), THREADS>>>(d_opts, d_sums, d_gap);
  closed_form<<<1, OPTIONS>>>(d_opts, d_price);
  CUDA_CHECK(cudaGetLastError());
  float* sums = (float*)malloc(OPTIONS * blocks * sizeof(float));
  float* gap = (float*)malloc(PATHS * sizeof(float));
  float price[OPTIONS];
  CUDA_CHECK(cudaMemcpy(sums, d_sums, OPTIONS * blocks * sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(gap, d_gap, PATHS * sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(price, d_price, sizeof price, cudaMemcpyDeviceToHost));
  int errors = 0;
  for (int k = 0; k < OPTIONS; k++) {
    const Option& o = h_opts[k];
    double d1 = (log((double)o.S / o.X) + (o.r + 0.5 * o.v * o.v) * o.T) / (o.v * sqrt((double)o.T)), d2 = d1 - o.v * sqrt((double)o.T);
    double exact = o.S * 0.5 * erfc(-d1 / sqrt(2.0)) - o.X * exp(-(double)o.r * o.T) * 0.5 * erfc(-d2 / sqrt(2.0));
    double sum = 0;
    for (int b = 0; b < blocks; b++) sum += sums[k * blocks + b];
    double mc = exp(-(double)o.r * o.T) * sum / PATHS;
    printf("option %d: closed form %.5f (device %.5f), Monte Carlo %.5f\n", k, exact, price[k], mc);
    if (fabs(price[k] - exact) > 1e-4 * (1 + exact)) errors++;
    if (fabs(mc - exact) > 0.01 * exact + 0.01) errors++;
  }
  float worst = 0;
  for (int i = 0; i < PATHS; i++) worst = fmaxf(worst, gap[i]);
  if (!(worst < 5e-3f)) { printf("inverse CDF forms disagree by %g\n", worst); errors++; }
  cudaFree(d_opts); cudaFree(d_sums); cudaFree(d_gap); cudaFree(d_price);
  free(sums); free(gap);
  if (errors) { printf("Test failed\n"); return 1; }
  printf("Test passed\n");
  return 0;
}
