// Inline PTX of the kinds public CUDA code writes most after those of
// inline_ptx.cu (docs/cuda-compat.md counts them): reductions and atomics on
// global memory, conversions with their rounding modifiers, float division,
// reciprocal and exponentials, integer abs/neg/min/max, bit operations and
// clamped shifts, generic-address conversions, conversions to and from the
// 16-bit floats, and the block barrier, each
// checked against the same computation in C++ on the host.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#define CHECK(call)                                                             \
  do {                                                                          \
    cudaError_t e = (call);                                                     \
    if (e != cudaSuccess) {                                                     \
      std::printf("line %d: %s: %s\n", __LINE__, #call, cudaGetErrorString(e)); \
      std::exit(1);                                                             \
    }                                                                           \
  } while (0)

constexpr int kResults = 17;
constexpr int kThreads = 64;

struct Counters {
  unsigned sum;
  float fsum;
  int low;
  unsigned high;
  unsigned ring;
  unsigned swapped;
};

__device__ __forceinline__ void reduce_add(unsigned* p, unsigned v) {
  asm volatile("red.global.add.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

__device__ __forceinline__ void reduce_add(float* p, float v) {
  asm volatile("red.relaxed.gpu.global.add.f32 [%0], %1;" ::"l"(p), "f"(v) : "memory");
}

__device__ __forceinline__ int fetch_min(int* p, int v) {
  int old;
  asm volatile("atom.global.min.s32 %0, [%1], %2;" : "=r"(old) : "l"(p), "r"(v) : "memory");
  return old;
}

__device__ __forceinline__ unsigned fetch_max(unsigned* p, unsigned v) {
  unsigned old;
  asm volatile("atom.acq_rel.gpu.global.max.u32 %0, [%1], %2;" : "=r"(old) : "l"(p), "r"(v) : "memory");
  return old;
}

__device__ __forceinline__ unsigned fetch_inc(unsigned* p, unsigned limit) {
  unsigned old;
  asm volatile("atom.global.inc.u32 %0, [%1], %2;" : "=r"(old) : "l"(p), "r"(limit) : "memory");
  return old;
}

__device__ __forceinline__ unsigned compare_swap(unsigned* p, unsigned expected, unsigned desired) {
  unsigned old;
  asm volatile("atom.global.cas.b32 %0, [%1], %2, %3;" : "=r"(old) : "l"(p), "r"(expected), "r"(desired) : "memory");
  return old;
}

__device__ __forceinline__ int truncate(float x) {
  int r;
  asm("cvt.rzi.s32.f32 %0, %1;" : "=r"(r) : "f"(x));
  return r;
}

__device__ __forceinline__ int round_even(float x) {
  int r;
  asm("cvt.rni.s32.f32 %0, %1;" : "=r"(r) : "f"(x));
  return r;
}

__device__ __forceinline__ unsigned char saturate_byte(float x) {
  unsigned r;
  asm("cvt.rmi.u8.f32 %0, %1;" : "=r"(r) : "f"(x));
  return static_cast<unsigned char>(r);
}

__device__ __forceinline__ float to_float_down(int x) {
  float r;
  asm("cvt.rm.f32.s32 %0, %1;" : "=f"(r) : "r"(x));
  return r;
}

__device__ __forceinline__ float divide(float a, float b) {
  float r;
  asm("div.full.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
  return r;
}

__device__ __forceinline__ float reciprocal_exp2(float x) {
  float e, r;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(e) : "f"(x));
  asm("rcp.approx.f32 %0, %1;" : "=f"(r) : "f"(e));
  return r;
}

__device__ __forceinline__ int abs_min_neg(int a, int b) {
  int r;
  asm("{\n\t.reg .s32 t;\n\tabs.s32 t, %1;\n\tmin.s32 t, t, %2;\n\tneg.s32 %0, t;\n\t}" : "=r"(r) : "r"(a), "r"(b));
  return r;
}

__device__ __forceinline__ unsigned bits(unsigned a, unsigned b, unsigned n) {
  unsigned r;
  asm("{\n\t.reg .b32 t;\n\txor.b32 t, %1, %2;\n\tnot.b32 t, t;\n\tshl.b32 %0, t, %3;\n\t}"
      : "=r"(r)
      : "r"(a), "r"(b), "r"(n));
  return r;
}

__device__ __forceinline__ int arithmetic_shift(int a, unsigned n) {
  int r;
  asm("shr.s32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(n));
  return r;
}

__device__ __forceinline__ const float* to_global(const float* p) {
  unsigned long long g;
  asm("cvta.to.global.u64 %0, %1;" : "=l"(g) : "l"(p));
  return reinterpret_cast<const float*>(g);
}

__device__ __forceinline__ unsigned short to_half(float x) {
  unsigned short h;
  asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(x));
  return h;
}

__device__ __forceinline__ float from_bfloat16(unsigned short b) {
  float f;
  asm("cvt.f32.bf16 %0, %1;" : "=f"(f) : "h"(b));
  return f;
}

__device__ __forceinline__ unsigned to_bfloat16_pair(float upper, float lower) {
  unsigned r;
  asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(upper), "f"(lower));
  return r;
}

__global__ void probe(const float* in, unsigned long long* out, Counters* c) {
  __shared__ int ready[kThreads];
  const int t = threadIdx.x;
  unsigned long long* mine = out + t * kResults;
  reduce_add(&c->sum, t + 1u);
  reduce_add(&c->fsum, 0.5f);
  fetch_min(&c->low, 1000 - t * 7);
  fetch_max(&c->high, t * 3u);
  mine[0] = fetch_inc(&c->ring, 9u) <= 9u;
  mine[1] = compare_swap(&c->swapped, 0u, t + 1u) == 0u;  // one thread wins
  const float x = in[t];
  mine[2] = static_cast<unsigned>(truncate(x));
  mine[3] = static_cast<unsigned>(round_even(x));
  mine[4] = saturate_byte(x * 40.0f);
  float f = to_float_down(16777217 + 2 * t);
  std::memcpy(&mine[5], &f, sizeof f);
  f = divide(x, 3.0f);
  std::memcpy(&mine[6], &f, sizeof f);
  f = reciprocal_exp2(x);
  std::memcpy(&mine[7], &f, sizeof f);
  mine[8] = static_cast<unsigned>(abs_min_neg(t % 2 ? -t * 5 : t * 5, 100));
  mine[9] = bits(0x9e3779b9u, t * 2654435761u, t % 40);
  mine[10] = static_cast<unsigned>(arithmetic_shift(-1000 * t - 1, t % 40));
  f = *to_global(in + t);
  std::memcpy(&mine[11], &f, sizeof f);
  mine[13] = to_half(x * 1.001f);
  f = from_bfloat16(static_cast<unsigned short>(0x3f80 + t));
  std::memcpy(&mine[14], &f, sizeof f);
  mine[15] = to_bfloat16_pair(x, -x / 7.0f);
  ready[t] = t;
  asm volatile("bar.sync 0;" ::: "memory");
  mine[12] = ready[(t + 1) % kThreads];
}

int main() {
  float* in = nullptr;
  unsigned long long* out = nullptr;
  Counters* c = nullptr;
  CHECK(cudaMallocManaged(&in, kThreads * sizeof(float)));
  CHECK(cudaMallocManaged(&out, kThreads * kResults * sizeof(unsigned long long)));
  CHECK(cudaMallocManaged(&c, sizeof(Counters)));
  std::memset(out, 0, kThreads * kResults * sizeof(unsigned long long));
  *c = {0, 0.0f, 1 << 30, 0, 0, 0};
  for (int i = 0; i < kThreads; ++i) in[i] = 0.75f * i - 20.5f;
  probe<<<1, kThreads>>>(in, out, c);
  CHECK(cudaDeviceSynchronize());
  int failures = 0;
  auto expect = [&](const char* what, int t, unsigned long long got, unsigned long long want) {
    if (got == want) return;
    if (failures < 10) std::printf("%s, thread %d: %llx, expected %llx\n", what, t, got, want);
    ++failures;
  };
  // div.full and the .approx instructions are within a few ulps on the GPU.
  auto expect_near = [&](const char* what, int t, unsigned long long got, float want) {
    float f;
    const unsigned u = static_cast<unsigned>(got);
    std::memcpy(&f, &u, sizeof f);
    if (std::fabs(f - want) <= 1e-5f * std::fabs(want)) return;
    if (failures < 10) std::printf("%s, thread %d: %g, expected %g\n", what, t, f, want);
    ++failures;
  };
  auto bits_of = [](float f) {
    unsigned u;
    std::memcpy(&u, &f, sizeof u);
    return static_cast<unsigned long long>(u);
  };
  unsigned winners = 0;
  for (int t = 0; t < kThreads; ++t) {
    const unsigned long long* r = out + t * kResults;
    const float x = in[t];
    winners += static_cast<unsigned>(r[1]);
    expect("atom.inc", t, r[0], 1);
    expect("cvt.rzi", t, r[2], static_cast<unsigned>(static_cast<int>(std::trunc(x))));
    expect("cvt.rni", t, r[3], static_cast<unsigned>(static_cast<int>(std::nearbyint(x))));
    const float scaled = std::floor(x * 40.0f);
    expect("cvt.rmi.u8 saturates", t, r[4], scaled < 0 ? 0 : scaled > 255 ? 255 : static_cast<unsigned>(scaled));
    expect("cvt.rm.f32", t, r[5], bits_of(16777216.0f + 2 * t));  // odd integers above 2^24 round down
    expect_near("div.full", t, r[6], x / 3.0f);
    expect_near("ex2 and rcp", t, r[7], 1 / std::exp2(x));
    const int magnitude = t * 5 < 100 ? t * 5 : 100;
    expect("abs, min, neg", t, r[8], static_cast<unsigned>(-magnitude));
    const unsigned n = t % 40;
    expect("xor, not, shl", t, r[9], n >= 32 ? 0u : ~(0x9e3779b9u ^ (t * 2654435761u)) << n);
    expect("shr.s32", t, r[10], static_cast<unsigned>(n >= 32 ? -1 : (-1000 * t - 1) >> n));
    expect("cvta.to.global", t, r[11], bits_of(x));
    expect("bar.sync", t, r[12], (t + 1) % kThreads);
    expect("cvt.rn.f16.f32", t, r[13], __half_as_ushort(__float2half_rn(x * 1.001f)));
    expect("cvt.f32.bf16", t, r[14], bits_of(__bfloat162float(__ushort_as_bfloat16(0x3f80 + t))));
    expect("cvt.rn.bf16x2.f32", t, r[15],
           (static_cast<unsigned>(__bfloat16_as_ushort(__float2bfloat16_rn(x))) << 16) |
               __bfloat16_as_ushort(__float2bfloat16_rn(-x / 7.0f)));
  }
  expect("one cas winner", 0, winners, 1);
  expect("red.add.u32", 0, c->sum, kThreads * (kThreads + 1) / 2);
  expect("red.add.f32", 0, bits_of(c->fsum), bits_of(kThreads * 0.5f));
  expect("atom.min.s32", 0, static_cast<unsigned>(c->low), static_cast<unsigned>(1000 - (kThreads - 1) * 7));
  expect("atom.max.u32", 0, c->high, (kThreads - 1) * 3u);
  expect("atom.inc wraps", 0, c->ring, kThreads % 10);
  expect("cas swapped", 0, c->swapped != 0, 1);
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));
  CHECK(cudaFree(c));
  std::printf(failures == 0 ? "Test passed\n" : "Test FAILED\n");
  return failures == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
