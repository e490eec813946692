// Jacobi iterations for the 1-D Poisson problem -u'' = f on a grid of n
// points, all iterations inside one cooperative kernel separated by
// grid.sync(); the residual is reduced over the grid at the end. The result
// is compared with the same iterations on the CPU.
#include <cooperative_groups.h>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace cg = cooperative_groups;

#define CHECK(call)                                                                       \
  do {                                                                                    \
    cudaError_t err_ = (call);                                                            \
    if (err_ != cudaSuccess) {                                                            \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_)); \
      std::exit(1);                                                                       \
    }                                                                                     \
  } while (0)

__global__ void jacobi(float* u, float* next, const float* f, int n, int iterations, float h2, float* residual) {
  cg::grid_group grid = cg::this_grid();
  for (int it = 0; it < iterations; ++it) {
    for (int i = grid.thread_rank(); i < n; i += grid.size()) {
      float left = i > 0 ? u[i - 1] : 0.0f;
      float right = i < n - 1 ? u[i + 1] : 0.0f;
      next[i] = 0.5f * (left + right + h2 * f[i]);
    }
    grid.sync();
    float* t = u;
    u = next;
    next = t;
  }
  if (grid.thread_rank() == 0) *residual = 0.0f;
  grid.sync();
  float local = 0.0f;
  for (int i = grid.thread_rank(); i < n; i += grid.size()) {
    float left = i > 0 ? u[i - 1] : 0.0f;
    float right = i < n - 1 ? u[i + 1] : 0.0f;
    float r = (2.0f * u[i] - left - right) / h2 - f[i];
    local += r * r;
  }
  auto warp = cg::tiled_partition<32>(cg::this_thread_block());
  for (int offset = 16; offset > 0; offset /= 2) local += warp.shfl_down(local, offset);
  if (warp.thread_rank() == 0) atomicAdd(residual, local);
}

int main() {
  int n = 1000, iterations = 200;
  const float h = 1.0f / (n + 1), h2 = h * h;
  std::vector<float> f(n), u(n, 0.0f), next(n, 0.0f);
  for (int i = 0; i < n; ++i) f[i] = std::sin(3.0f * (i + 1) * h);

  int threads = 128, per_sm = 0, sms = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, jacobi, threads, 0));
  int blocks = per_sm * sms;
  if (blocks > (n + threads - 1) / threads) blocks = (n + threads - 1) / threads;

  float *d_u, *d_next, *d_f, *d_residual;
  CHECK(cudaMalloc(&d_u, n * sizeof(float)));
  CHECK(cudaMalloc(&d_next, n * sizeof(float)));
  CHECK(cudaMalloc(&d_f, n * sizeof(float)));
  CHECK(cudaMalloc(&d_residual, sizeof(float)));
  CHECK(cudaMemset(d_u, 0, n * sizeof(float)));
  CHECK(cudaMemset(d_next, 0, n * sizeof(float)));
  CHECK(cudaMemcpy(d_f, f.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  float h2_arg = h2;
  void* args[] = {&d_u, &d_next, &d_f, &n, &iterations, &h2_arg, &d_residual};
  CHECK(cudaLaunchCooperativeKernel(jacobi, blocks, threads, args));
  CHECK(cudaDeviceSynchronize());

  for (int it = 0; it < iterations; ++it) {
    for (int i = 0; i < n; ++i) {
      float left = i > 0 ? u[i - 1] : 0.0f;
      float right = i < n - 1 ? u[i + 1] : 0.0f;
      next[i] = 0.5f * (left + right + h2 * f[i]);
    }
    u.swap(next);
  }
  std::vector<float> got(n);
  float residual = 0;
  CHECK(cudaMemcpy(got.data(), iterations % 2 ? d_next : d_u, n * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&residual, d_residual, sizeof residual, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    if (std::fabs(got[i] - u[i]) > 1e-5f * (1.0f + std::fabs(u[i]))) {
      std::printf("u[%d]: got %g, expected %g\n", i, got[i], u[i]);
      return 1;
    }
  }
  double expected_residual = 0;
  for (int i = 0; i < n; ++i) {
    float left = i > 0 ? u[i - 1] : 0.0f;
    float right = i < n - 1 ? u[i + 1] : 0.0f;
    float r = (2.0f * u[i] - left - right) / h2 - f[i];
    expected_residual += r * r;
  }
  if (std::fabs(residual - expected_residual) > 1e-2 * expected_residual) {
    std::printf("residual: got %g, expected %g\n", residual, expected_residual);
    return 1;
  }
  CHECK(cudaFree(d_u));
  CHECK(cudaFree(d_next));
  CHECK(cudaFree(d_f));
  CHECK(cudaFree(d_residual));
  std::printf("jacobi_grid_sync: PASS (%d blocks, residual %g)\n", blocks, residual);
  return 0;
}
