// Inline PTX as public CUDA code writes it (the lane id and mask, bit-field
// extract and insert, byte permute, a non-coherent load, a sum of absolute
// byte differences, a three-input logic op, funnel shifts, a 64-bit add with
// carry, packing and unpacking moves, a fence), each checked against the
// same computation in C++ on the host.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#define CHECK(call)                                                                 \
  do {                                                                              \
    cudaError_t e = (call);                                                         \
    if (e != cudaSuccess) {                                                         \
      std::printf("line %d: %s: %s\n", __LINE__, #call, cudaGetErrorString(e));     \
      std::exit(1);                                                                 \
    }                                                                               \
  } while (0)

constexpr int kResults = 12;

__device__ __forceinline__ unsigned lane_id() {
  unsigned lane;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
  return lane;
}

__device__ __forceinline__ unsigned lanes_below() {
  unsigned mask;
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(mask));
  return mask;
}

__device__ __forceinline__ unsigned bit_field(unsigned x, unsigned pos, unsigned len) {
  unsigned r;
  asm("bfe.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(pos), "r"(len));
  return r;
}

__device__ __forceinline__ int signed_bit_field(int x, unsigned pos, unsigned len) {
  int r;
  asm("bfe.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(pos), "r"(len));
  return r;
}

__device__ __forceinline__ unsigned insert_bits(unsigned x, unsigned into, unsigned pos, unsigned len) {
  unsigned r;
  asm("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(x), "r"(into), "r"(pos), "r"(len));
  return r;
}

__device__ __forceinline__ unsigned permute(unsigned a, unsigned b, unsigned selector) {
  unsigned r;
  asm("prmt.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(selector));
  return r;
}

__device__ __forceinline__ float load_nc(const float* p) {
  float v;
  asm volatile("ld.global.nc.f32 %0, [%1];" : "=f"(v) : "l"(p));
  return v;
}

__device__ __forceinline__ unsigned sad4(unsigned a, unsigned b, unsigned c) {
  unsigned r;
  asm("vabsdiff4.u32.u32.u32.add %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  return r;
}

__device__ __forceinline__ unsigned majority(unsigned a, unsigned b, unsigned c) {
  unsigned r;
  asm("lop3.b32 %0, %1, %2, %3, 0xE8;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  return r;
}

__device__ __forceinline__ unsigned rotate_left(unsigned x, unsigned n) {
  unsigned r;
  asm("shf.l.wrap.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(x), "r"(n));
  return r;
}

__device__ __forceinline__ unsigned long long add64(unsigned long long a, unsigned long long b) {
  unsigned lo, hi;
  asm("{\n\t.reg .u32 alo, ahi, blo, bhi;\n\t"
      "mov.b64 {alo, ahi}, %2;\n\t"
      "mov.b64 {blo, bhi}, %3;\n\t"
      "add.cc.u32 %0, alo, blo;\n\t"
      "addc.u32 %1, ahi, bhi;\n\t}"
      : "=r"(lo), "=r"(hi)
      : "l"(a), "l"(b));
  unsigned long long r;
  asm("mov.b64 %0, {%1, %2};" : "=l"(r) : "r"(lo), "r"(hi));
  return r;
}

__global__ void probe(const float* in, unsigned long long* out, unsigned a, unsigned b, int s) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long* mine = out + t * kResults;
  mine[0] = lane_id();
  mine[1] = lanes_below();
  mine[2] = bit_field(a, t % 29, 7);
  mine[3] = static_cast<unsigned>(signed_bit_field(s, t % 20, 9));
  mine[4] = insert_bits(a, b, t % 27, 5);
  mine[5] = permute(a, b, 0x7531u + t);
  mine[6] = __float_as_uint(load_nc(in + t));
  mine[7] = sad4(a + t, b, 3);
  mine[8] = majority(a, b, a ^ (t * 2654435761u));
  mine[9] = rotate_left(a, t);
  mine[10] = add64(0xfffffffful + t, 0x1ffffffffull);
  asm volatile("membar.gl;" ::: "memory");
  mine[11] = 1;
}

// The host's reference, from PTX's definitions.
static unsigned ref_bfe(unsigned x, unsigned pos, unsigned len) {
  unsigned r = 0;
  for (unsigned i = 0; i < len && pos + i < 32; ++i) r |= ((x >> (pos + i)) & 1u) << i;
  return r;
}
static int ref_bfe_signed(int x, unsigned pos, unsigned len) {
  const unsigned top = pos + len - 1 > 31 ? 31 : pos + len - 1;
  const unsigned sign = (static_cast<unsigned>(x) >> top) & 1u;
  unsigned r = 0;
  for (unsigned i = 0; i < 32; ++i)
    r |= (i < len && pos + i < 32 ? (static_cast<unsigned>(x) >> (pos + i)) & 1u : sign) << i;
  return static_cast<int>(r);
}
static unsigned ref_bfi(unsigned x, unsigned into, unsigned pos, unsigned len) {
  for (unsigned i = 0; i < len && pos + i < 32; ++i) into = (into & ~(1u << (pos + i))) | (((x >> i) & 1u) << (pos + i));
  return into;
}
static unsigned ref_prmt(unsigned a, unsigned b, unsigned s) {
  const unsigned long long bytes = (static_cast<unsigned long long>(b) << 32) | a;
  unsigned r = 0;
  for (int i = 0; i < 4; ++i) {
    const unsigned n = (s >> (4 * i)) & 0xf;
    unsigned byte = (bytes >> (8 * (n & 7))) & 0xff;
    if (n & 8) byte = (byte & 0x80) ? 0xff : 0;
    r |= byte << (8 * i);
  }
  return r;
}
static unsigned ref_sad4(unsigned a, unsigned b, unsigned c) {
  for (int i = 0; i < 4; ++i) {
    const int x = (a >> (8 * i)) & 0xff, y = (b >> (8 * i)) & 0xff;
    c += x > y ? x - y : y - x;
  }
  return c;
}

int main() {
  const int blocks = 2, threads = 64, n = blocks * threads;
  float* in = nullptr;
  unsigned long long* out = nullptr;
  CHECK(cudaMallocManaged(&in, n * sizeof(float)));
  CHECK(cudaMallocManaged(&out, n * kResults * sizeof(unsigned long long)));
  for (int i = 0; i < n; ++i) in[i] = 0.25f * i - 3.0f;
  const unsigned a = 0x9e3779b9u, b = 0x7f4a7c15u;
  const int s = -123456789;
  probe<<<blocks, threads>>>(in, out, a, b, s);
  CHECK(cudaDeviceSynchronize());
  int failures = 0;
  for (int t = 0; t < n; ++t) {
    const unsigned long long* r = out + t * kResults;
    const unsigned rank = t % threads;
    float f = in[t];
    unsigned f_bits;
    std::memcpy(&f_bits, &f, sizeof f_bits);
    const unsigned c = a ^ (t * 2654435761u);
    const unsigned long long expected[kResults] = {
        rank % 32, (1u << (rank % 32)) - 1, ref_bfe(a, t % 29, 7), static_cast<unsigned>(ref_bfe_signed(s, t % 20, 9)),
        ref_bfi(a, b, t % 27, 5), ref_prmt(a, b, 0x7531u + t), f_bits, ref_sad4(a + t, b, 3),
        (a & b) | (a & c) | (b & c), (a << (t % 32)) | (t % 32 ? a >> (32 - t % 32) : 0),
        0xfffffffful + t + 0x1ffffffffull, 1};
    for (int k = 0; k < kResults; ++k)
      if (r[k] != expected[k]) {
        if (failures < 10) std::printf("thread %d, result %d: %llx, expected %llx\n", t, k, r[k], expected[k]);
        ++failures;
      }
  }
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));
  std::printf(failures == 0 ? "Test passed\n" : "Test FAILED\n");
  return failures == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
