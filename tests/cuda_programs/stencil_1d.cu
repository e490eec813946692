// A 1-D stencil of radius 3 with coefficients in __constant__ memory (set by
// cudaMemcpyToSymbol), the block's tile and halo staged in dynamic shared
// memory (extern __shared__), compared with the same stencil on the CPU.
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

#define RADIUS 3
__constant__ float coefficients[2 * RADIUS + 1];

__global__ void stencil(const float* in, float* out, int n) {
  extern __shared__ float tile[];
  const int g = blockIdx.x * blockDim.x + threadIdx.x;
  const int l = threadIdx.x + RADIUS;
  tile[l] = g < n ? in[g] : 0.0f;
  if (threadIdx.x < RADIUS) {
    const int left = g - RADIUS, right = g + blockDim.x;
    tile[l - RADIUS] = left >= 0 && left < n ? in[left] : 0.0f;
    tile[l + blockDim.x] = right < n ? in[right] : 0.0f;
  }
  cg::this_thread_block().sync();
  if (g < n) {
    float s = 0.0f;
    for (int k = -RADIUS; k <= RADIUS; ++k) s += coefficients[k + RADIUS] * tile[l + k];
    out[g] = s;
  }
}

int main() {
  const int n = 123457, threads = 256;
  const float c[2 * RADIUS + 1] = {0.05f, -0.1f, 0.2f, 0.7f, 0.2f, -0.1f, 0.05f};
  CHECK(cudaMemcpyToSymbol(coefficients, c, sizeof c));
  float readback[2 * RADIUS + 1];
  CHECK(cudaMemcpyFromSymbol(readback, coefficients, sizeof readback));
  for (int k = 0; k < 2 * RADIUS + 1; ++k)
    if (readback[k] != c[k]) {
      std::printf("coefficient %d read back as %f\n", k, readback[k]);
      return 1;
    }
  std::vector<float> in(n), out(n);
  for (int i = 0; i < n; ++i) in[i] = std::sin(0.001f * i) + (i % 5) * 0.1f;
  float *d_in, *d_out;
  CHECK(cudaMalloc(&d_in, n * sizeof(float)));
  CHECK(cudaMalloc(&d_out, n * sizeof(float)));
  CHECK(cudaMemcpy(d_in, in.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  const size_t shared = (threads + 2 * RADIUS) * sizeof(float);
  stencil<<<(n + threads - 1) / threads, threads, shared>>>(d_in, d_out, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(out.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    float s = 0.0f;
    for (int k = -RADIUS; k <= RADIUS; ++k) {
      const int j = i + k;
      s += c[k + RADIUS] * (j >= 0 && j < n ? in[j] : 0.0f);
    }
    if (std::fabs(out[i] - s) > 1e-5f) {
      std::printf("out[%d]: got %f, expected %f\n", i, out[i], s);
      return 1;
    }
  }
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  std::printf("stencil_1d: PASS\n");
  return 0;
}
