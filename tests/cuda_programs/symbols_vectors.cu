// Device variables and the builtins around them: a __device__ counter and a
// __constant__ table set and read through cudaMemcpyToSymbol/FromSymbol and
// cudaGetSymbolAddress, a __managed__ variable and cudaMallocManaged memory
// touched by host and kernel, float4/int2 vector types with make_*, __ldg,
// and the conversion and fast-math intrinsics (checked against the CPU), a
// __noinline__ helper, and <memory> included after the runtime's header.
#include <cooperative_groups.h>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>

namespace cg = cooperative_groups;

#define CHECK(call)                                                                       \
  do {                                                                                    \
    cudaError_t err_ = (call);                                                            \
    if (err_ != cudaSuccess) {                                                            \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_)); \
      std::exit(1);                                                                       \
    }                                                                                     \
  } while (0)

__device__ int hits;
__constant__ float weights[4];
__managed__ int managed_total;

__device__ __noinline__ float weigh(const float4& v) {
  return v.x * weights[0] + v.y * weights[1] + v.z * weights[2] + v.w * weights[3];
}

__global__ void weighted(const float4* in, float* out, int2* rounded, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float4 v = __ldg(&in[i]);
  const float s = weigh(v);
  out[i] = s;
  rounded[i] = make_int2(__float2int_rn(s), __float2int_rz(s));
  atomicAdd(&hits, 1);
  atomicAdd_system(&managed_total, 1);
}

__global__ void math(const float* x, float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const float v = x[i];
    y[4 * i + 0] = __expf(v);
    y[4 * i + 1] = rsqrtf(v + 1.0f);
    y[4 * i + 2] = __fdividef(v, 3.0f);
    y[4 * i + 3] = static_cast<float>(__mul24(i, 3) + __popc(i) + __clz(i + 1));
  }
}

__global__ void timed(long long* elapsed) {
  const long long start = clock64();
  float x = 0;
  for (int i = 0; i < 1000; ++i) x += __sinf(static_cast<float>(i));
  __nanosleep(100);
  const long long end = clock64();
  if (x != 12345.0f) elapsed[threadIdx.x] = end - start;
}

int main() {
  const int n = 1000;
  const float w[4] = {0.5f, 1.5f, -2.0f, 0.25f};
  CHECK(cudaMemcpyToSymbol(weights, w, sizeof w));
  const int zero = 0;
  CHECK(cudaMemcpyToSymbol(hits, &zero, sizeof zero));
  managed_total = 0;

  float4* in;
  CHECK(cudaMallocManaged(&in, n * sizeof(float4)));
  for (int i = 0; i < n; ++i) in[i] = make_float4(i * 0.1f, i * -0.2f, 1.0f, i % 7 * 1.0f);
  float* out;
  int2* rounded;
  CHECK(cudaMalloc(&out, n * sizeof(float)));
  CHECK(cudaMalloc(&rounded, n * sizeof(int2)));
  weighted<<<(n + 255) / 256, 256>>>(in, out, rounded, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());

  int counted = 0;
  CHECK(cudaMemcpyFromSymbol(&counted, hits, sizeof counted));
  int* hits_address = nullptr;
  CHECK(cudaGetSymbolAddress((void**)&hits_address, hits));
  int through_address = 0;
  CHECK(cudaMemcpy(&through_address, hits_address, sizeof(int), cudaMemcpyDeviceToHost));
  if (counted != n || through_address != n || managed_total != n) {
    std::printf("hits %d, through its address %d, managed %d, expected %d\n", counted, through_address, managed_total, n);
    return 1;
  }
  const auto host_out = std::make_unique<float[]>(n);
  const auto host_rounded = std::make_unique<int2[]>(n);
  CHECK(cudaMemcpy(host_out.get(), out, n * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(host_rounded.get(), rounded, n * sizeof(int2), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    const float4 v = in[i];
    const float s = v.x * w[0] + v.y * w[1] + v.z * w[2] + v.w * w[3];
    if (std::fabs(host_out[i] - s) > 1e-4f * (1.0f + std::fabs(s)) ||
        host_rounded[i].x != static_cast<int>(std::nearbyint(host_out[i])) ||
        host_rounded[i].y != static_cast<int>(host_out[i])) {
      std::printf("weighted[%d]: %f (%d, %d), expected %f\n", i, host_out[i], host_rounded[i].x, host_rounded[i].y, s);
      return 1;
    }
  }

  float *x, *y;
  CHECK(cudaMallocManaged(&x, n * sizeof(float)));
  CHECK(cudaMallocManaged(&y, 4 * n * sizeof(float)));
  for (int i = 0; i < n; ++i) x[i] = (i % 50) * 0.1f;
  math<<<(n + 127) / 128, 128>>>(x, y, n);
  CHECK(cudaDeviceSynchronize());
  for (int i = 0; i < n; ++i) {
    const float v = x[i];
    const float expected[4] = {std::exp(v), 1.0f / std::sqrt(v + 1.0f), v / 3.0f,
                               static_cast<float>(i * 3 + __builtin_popcount(i) + __builtin_clz(i + 1))};
    for (int k = 0; k < 4; ++k)
      if (std::fabs(y[4 * i + k] - expected[k]) > 1e-3f * (1.0f + std::fabs(expected[k]))) {
        std::printf("math[%d][%d]: got %f, expected %f\n", i, k, y[4 * i + k], expected[k]);
        return 1;
      }
  }

  long long* elapsed;
  CHECK(cudaMallocManaged(&elapsed, 32 * sizeof(long long)));
  for (int k = 0; k < 32; ++k) elapsed[k] = -1;
  timed<<<1, 32>>>(elapsed);
  CHECK(cudaDeviceSynchronize());
  for (int k = 0; k < 32; ++k)
    if (elapsed[k] < 0) {
      std::printf("clock64 went backwards in thread %d\n", k);
      return 1;
    }
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));
  CHECK(cudaFree(rounded));
  CHECK(cudaFree(x));
  CHECK(cudaFree(y));
  CHECK(cudaFree(elapsed));
  std::printf("symbols_vectors: PASS\n");
  return 0;
}
