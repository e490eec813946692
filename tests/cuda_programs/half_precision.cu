// Half precision bit for bit: every operation below computed in a kernel on
// inputs from a fixed seed (random bit patterns, mixed with zeros of both
// signs, subnormals, the largest finite values, infinities and NaNs, and
// floats on and around the 16-bit formats' rounding boundaries), its results'
// bits compared with those an H200 produced for the same inputs.
//
//   half_precision --write FILE   writes the results (run on the GPU)
//   half_precision FILE           checks the results against FILE
//
// The expected results, tests/cuda_programs/data/half_precision_h200.txt, were
// written by this program built with nvcc 13 for sm_90 and run on an H200:
//   nvcc -arch=sm_90 -O2 -o half_precision half_precision.cu
//   ./half_precision --write data/half_precision_h200.txt
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#define CHECK(call)                                                                       \
  do {                                                                                    \
    cudaError_t err_ = (call);                                                            \
    if (err_ != cudaSuccess) {                                                            \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_)); \
      std::exit(1);                                                                       \
    }                                                                                     \
  } while (0)

constexpr int kInputs = 512;
constexpr unsigned long long kSeed = 0x5eed2026ull;

// Operands, per input index i.
struct operands {
  unsigned short a[kInputs], b[kInputs], c[kInputs];      // 16-bit patterns (half or bfloat16)
  unsigned short ba[kInputs], bb[kInputs], bc[kInputs];   // bfloat16 patterns
  float f[kInputs];
  double d[kInputs];
  int n[kInputs];
  long long ll[kInputs];
};

__device__ __forceinline__ unsigned long long hb(__half h) { return __half_as_ushort(h); }
__device__ __forceinline__ unsigned long long bb16(__nv_bfloat16 h) { return __bfloat16_as_ushort(h); }
__device__ __forceinline__ unsigned long long h2b(__half2 h) { return hb(__low2half(h)) | hb(__high2half(h)) << 16; }
__device__ __forceinline__ unsigned long long b2b(__nv_bfloat162 h) {
  return bb16(__low2bfloat16(h)) | bb16(__high2bfloat16(h)) << 16;
}
__device__ __forceinline__ unsigned long long fb(float f) { return __float_as_uint(f); }

// X(name, expression): the operations, over A, B, C (halves), P, Q, R (their
// pairs), BA, BB, BC (bfloat16s), BP, BQ, BR (bfloat16 pairs), F, D, N, LL.
#define HALF_OPERATIONS(X)                                              \
  X(float2half, hb(__float2half(F)))                                    \
  X(float2half_rn, hb(__float2half_rn(F)))                              \
  X(float2half_rz, hb(__float2half_rz(F)))                              \
  X(float2half_rd, hb(__float2half_rd(F)))                              \
  X(float2half_ru, hb(__float2half_ru(F)))                              \
  X(double2half, hb(__double2half(D)))                                  \
  X(half2float, fb(__half2float(A)))                                    \
  X(int2half_rn, hb(__int2half_rn(N)))                                  \
  X(int2half_rz, hb(__int2half_rz(N)))                                  \
  X(int2half_rd, hb(__int2half_rd(N)))                                  \
  X(int2half_ru, hb(__int2half_ru(N)))                                  \
  X(uint2half_rn, hb(__uint2half_rn((unsigned)N)))                      \
  X(ll2half_rn, hb(__ll2half_rn(LL)))                                   \
  X(half2int_rn, (unsigned)__half2int_rn(A))                            \
  X(half2int_rz, (unsigned)__half2int_rz(A))                            \
  X(half2int_rd, (unsigned)__half2int_rd(A))                            \
  X(half2int_ru, (unsigned)__half2int_ru(A))                            \
  X(half2uint_rn, __half2uint_rn(A))                                    \
  X(half2short_rn, (unsigned short)__half2short_rn(A))                  \
  X(half2ll_rz, (unsigned long long)__half2ll_rz(A))                    \
  X(hadd, hb(__hadd(A, B)))                                             \
  X(hsub, hb(__hsub(A, B)))                                             \
  X(hmul, hb(__hmul(A, B)))                                             \
  X(hdiv, hb(__hdiv(A, B)))                                             \
  X(hfma, hb(__hfma(A, B, C)))                                          \
  X(hneg, hb(__hneg(A)))                                                \
  X(habs, hb(__habs(A)))                                                \
  X(hmax, hb(__hmax(A, B)))                                             \
  X(hmin, hb(__hmin(A, B)))                                             \
  X(hmax_nan, hb(__hmax_nan(A, B)))                                     \
  X(hmin_nan, hb(__hmin_nan(A, B)))                                     \
  X(hadd_sat, hb(__hadd_sat(A, B)))                                     \
  X(hmul_sat, hb(__hmul_sat(A, B)))                                     \
  X(hfma_sat, hb(__hfma_sat(A, B, C)))                                  \
  X(hfma_relu, hb(__hfma_relu(A, B, C)))                                \
  X(compare, (unsigned)(__heq(A, B) | __hne(A, B) << 1 | __hlt(A, B) << 2 | __hle(A, B) << 3 | __hgt(A, B) << 4 | \
                        __hge(A, B) << 5 | __hequ(A, B) << 6 | __hneu(A, B) << 7 | __hltu(A, B) << 8 |            \
                        __hleu(A, B) << 9 | __hgtu(A, B) << 10 | __hgeu(A, B) << 11))                              \
  X(classify, (unsigned)(__hisnan(A) | (__hisinf(A) + 1) << 1))         \
  X(operators, hb(A + B) | hb(A * B) << 16 | hb(A - B) << 32 | (unsigned long long)(A < B) << 48 | \
                   (unsigned long long)(A != B) << 49)                  \
  X(hsqrt, hb(hsqrt(A)))                                                \
  X(hfloor, hb(hfloor(A)))                                              \
  X(hceil, hb(hceil(A)))                                                \
  X(htrunc, hb(htrunc(A)))                                              \
  X(hrint, hb(hrint(A)))                                                \
  X(floats2half2_rn, h2b(__floats2half2_rn(F, (float)D)))               \
  X(half22float2, fb(__half22float2(P).x) | fb(__half22float2(P).y) << 32) \
  X(hadd2, h2b(__hadd2(P, Q)))                                          \
  X(hmul2, h2b(__hmul2(P, Q)))                                          \
  X(hfma2, h2b(__hfma2(P, Q, R)))                                       \
  X(h2div, h2b(__h2div(P, Q)))                                          \
  X(hmax2, h2b(__hmax2(P, Q)))                                          \
  X(heq2, h2b(__heq2(P, Q)) | (unsigned long long)__hbeq2(P, Q) << 32)  \
  X(float2bfloat16, bb16(__float2bfloat16(F)))                          \
  X(float2bfloat16_rz, bb16(__float2bfloat16_rz(F)))                    \
  X(float2bfloat16_rd, bb16(__float2bfloat16_rd(F)))                    \
  X(float2bfloat16_ru, bb16(__float2bfloat16_ru(F)))                    \
  X(double2bfloat16, bb16(__double2bfloat16(D)))                        \
  X(bfloat162float, fb(__bfloat162float(BA)))                           \
  X(bf_hadd, bb16(__hadd(BA, BB)))                                      \
  X(bf_hsub, bb16(__hsub(BA, BB)))                                      \
  X(bf_hmul, bb16(__hmul(BA, BB)))                                      \
  X(bf_hdiv, bb16(__hdiv(BA, BB)))                                      \
  X(bf_hfma, bb16(__hfma(BA, BB, BC)))                                  \
  X(bf_hneg, bb16(__hneg(BA)))                                          \
  X(bf_habs, bb16(__habs(BA)))                                          \
  X(bf_hmax, bb16(__hmax(BA, BB)))                                      \
  X(bf_hmin, bb16(__hmin(BA, BB)))                                      \
  X(bf_compare, (unsigned)(__heq(BA, BB) | __hne(BA, BB) << 1 | __hlt(BA, BB) << 2 | __hge(BA, BB) << 3 | \
                           __hneu(BA, BB) << 4 | __hltu(BA, BB) << 5))  \
  X(bf_hadd2, b2b(__hadd2(BP, BQ)))                                     \
  X(bf_hmul2, b2b(__hmul2(BP, BQ)))                                     \
  X(bf_hfma2, b2b(__hfma2(BP, BQ, BR)))                                 \
  X(floats2bfloat162_rn, b2b(__floats2bfloat162_rn(F, (float)D)))

#define HALF_COUNT(name, expr) +1
constexpr int kOperations = 0 HALF_OPERATIONS(HALF_COUNT) + 6;  // + shuffles and atomics (below)
#define HALF_NAME(name, expr) #name,
const char* const kNames[] = {HALF_OPERATIONS(HALF_NAME) "shfl_xor_half", "shfl_down_half2", "shfl_bfloat16",
                              "atomicAdd_half", "atomicAdd_half2", "atomicAdd_bfloat16"};

__global__ void compute(const operands* in, unsigned long long* out, __half* half_slots, __half2* pair_slots,
                        __nv_bfloat16* bf_slots) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int j = (i + 1) % kInputs, k = (i + 2) % kInputs;
  const __half A = __ushort_as_half(in->a[i]), B = __ushort_as_half(in->b[i]), C = __ushort_as_half(in->c[i]);
  const __half2 P = __halves2half2(A, __ushort_as_half(in->a[j])), Q = __halves2half2(B, __ushort_as_half(in->b[j])),
                R = __halves2half2(C, __ushort_as_half(in->c[k]));
  const __nv_bfloat16 BA = __ushort_as_bfloat16(in->ba[i]), BB = __ushort_as_bfloat16(in->bb[i]),
                      BC = __ushort_as_bfloat16(in->bc[i]);
  const __nv_bfloat162 BP = __halves2bfloat162(BA, __ushort_as_bfloat16(in->ba[j])),
                       BQ = __halves2bfloat162(BB, __ushort_as_bfloat16(in->bb[j])),
                       BR = __halves2bfloat162(BC, __ushort_as_bfloat16(in->bc[k]));
  const float F = in->f[i];
  const double D = in->d[i];
  const int N = in->n[i];
  const long long LL = in->ll[i];
  int op = 0;
#define HALF_STORE(name, expr) out[(size_t)(op++) * kInputs + i] = (unsigned long long)(expr);
  HALF_OPERATIONS(HALF_STORE)
  out[(size_t)(op++) * kInputs + i] = hb(__shfl_xor_sync(0xffffffffu, A, 1));
  out[(size_t)(op++) * kInputs + i] = h2b(__shfl_down_sync(0xffffffffu, P, 3));
  out[(size_t)(op++) * kInputs + i] = bb16(__shfl_sync(0xffffffffu, BA, (threadIdx.x * 7) % 32));
  out[(size_t)(op++) * kInputs + i] = hb(atomicAdd(&half_slots[i], B)) | hb(half_slots[i]) << 16;
  out[(size_t)(op++) * kInputs + i] = h2b(atomicAdd(&pair_slots[i], Q)) | h2b(pair_slots[i]) << 32;
  out[(size_t)(op++) * kInputs + i] = bb16(atomicAdd(&bf_slots[i], BB)) | bb16(bf_slots[i]) << 16;
}

// ---- Inputs ----
static unsigned long long state = kSeed;
static unsigned long long next() {
  state ^= state << 13;
  state ^= state >> 7;
  state ^= state << 17;
  return state;
}
static float as_float(unsigned u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
static double as_double(unsigned long long u) {
  double d;
  std::memcpy(&d, &u, 8);
  return d;
}
// Half patterns worth every operation: zeros, subnormals, the smallest
// normal, one, the largest finite, infinities, NaNs (quiet, signalling, signed).
static const unsigned short kSpecialHalves[] = {0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x0400, 0x3c00, 0xbc00,
                                                0x3800, 0x7bff, 0xfbff, 0x7c00, 0xfc00, 0x7e00, 0x7c01, 0xfe00,
                                                0x3555, 0x0200, 0x4000, 0xc000};
static const unsigned short kSpecialBfloat16[] = {0x0000, 0x8000, 0x0001, 0x807f, 0x0080, 0x3f80, 0xbf80, 0x7f7f,
                                                  0xff7f, 0x7f80, 0xff80, 0x7fc0, 0x7f81, 0xffc0, 0x3f00, 0x4000};
static unsigned short pick16(const unsigned short* special, int count, int salt) {
  const unsigned long long r = next();
  if ((r & 7) < 2) return special[(r >> 8) % count];
  if ((r & 7) == 2) return (unsigned short)(((r >> 8) & 0x83ff) ^ salt);  // subnormal range
  return (unsigned short)(r >> 16);
}
static float pick_float(int i) {
  const unsigned long long r = next();
  switch (i % 8) {
    case 0: return as_float((unsigned)(r >> 32));                         // any pattern
    case 1: {                                                              // on and next to a half's rounding boundary
      const unsigned h = (unsigned)(r >> 40) & 0x7bff;
      const float lo = __half2float(__ushort_as_half((unsigned short)h));
      const float hi = __half2float(__ushort_as_half((unsigned short)(h + 1)));
      const float mid = lo + (hi - lo) / 2;
      const unsigned mid_bits = *reinterpret_cast<const unsigned*>(&mid);
      const float f = as_float(mid_bits + (int)((r >> 4) % 3) - 1);
      return (r & 1) ? -f : f;
    }
    case 2: return as_float(0x33000000u + (unsigned)((r >> 40) % 0x01800000u)) * ((r & 1) ? -1 : 1);  // half subnormals
    case 3: return (float)(65504.0 + (double)((r >> 40) % 64) - 8.0) * ((r & 1) ? -1 : 1);           // near overflow
    case 4: return as_float((unsigned)(r >> 32) & 0x807fffffu);                                      // float subnormals
    case 5: return (float)((long long)(r >> 40) % 200000) / 8.0f;                                    // ordinary values
    case 6: {                                                                                        // bf16 boundaries
      const unsigned base = (unsigned)(r >> 32) & 0xffff0000u;
      return as_float(base | (0x8000u + (unsigned)((r >> 4) % 3) - 1));
    }
    default: {
      const float s[] = {0.0f, -0.0f, 1.0f / 0.0f, -1.0f / 0.0f, as_float(0x7fc00000u), as_float(0xff800001u),
                         65520.0f, 65519.996f, 5.9604645e-8f, 2.9802322e-8f, 2.9802326e-8f, 1.0f};
      return s[(r >> 8) % 12];
    }
  }
}

static void make_inputs(operands& in) {
  const int specials = (int)(sizeof kSpecialHalves / sizeof kSpecialHalves[0]);
  const int bf_specials = (int)(sizeof kSpecialBfloat16 / sizeof kSpecialBfloat16[0]);
  for (int i = 0; i < kInputs; ++i) {
    in.a[i] = pick16(kSpecialHalves, specials, 0);
    in.b[i] = pick16(kSpecialHalves, specials, 0x8000);
    in.c[i] = pick16(kSpecialHalves, specials, 0);
    in.ba[i] = pick16(kSpecialBfloat16, bf_specials, 0);
    in.bb[i] = pick16(kSpecialBfloat16, bf_specials, 0x8000);
    in.bc[i] = pick16(kSpecialBfloat16, bf_specials, 0);
    in.f[i] = pick_float(i);
    const unsigned long long r = next();
    in.d[i] = (i % 3 == 0) ? as_double(r) : (double)pick_float(i + 1) * (1.0 + ldexp((double)(r >> 40), -40));
    in.n[i] = (int)(r >> 32) >> ((r >> 8) % 32);
    in.ll[i] = (long long)r >> ((r >> 16) % 64);
    if (i % 5 == 0) {  // a product's cancellation: c = -(a * b) rounded
      in.c[i] = __half_as_ushort(__hneg(__float2half(__half2float(__ushort_as_half(in.a[i])) *
                                                     __half2float(__ushort_as_half(in.b[i])))));
      in.bc[i] = __bfloat16_as_ushort(__hneg(__float2bfloat16(__bfloat162float(__ushort_as_bfloat16(in.ba[i])) *
                                                              __bfloat162float(__ushort_as_bfloat16(in.bb[i])))));
    }
  }
}

int main(int argc, char** argv) {
  const bool write = argc == 3 && std::strcmp(argv[1], "--write") == 0;
  if (!(argc == 2 || write)) {
    std::fprintf(stderr, "usage: %s [--write] FILE\n", argv[0]);
    return 2;
  }
  const char* path = argv[argc - 1];
  operands* in;
  unsigned long long* out;
  __half* half_slots;
  __half2* pair_slots;
  __nv_bfloat16* bf_slots;
  CHECK(cudaMallocManaged(&in, sizeof(operands)));
  CHECK(cudaMallocManaged(&out, sizeof(unsigned long long) * kOperations * kInputs));
  CHECK(cudaMallocManaged(&half_slots, sizeof(__half) * kInputs));
  CHECK(cudaMallocManaged(&pair_slots, sizeof(__half2) * kInputs));
  CHECK(cudaMallocManaged(&bf_slots, sizeof(__nv_bfloat16) * kInputs));
  make_inputs(*in);
  for (int i = 0; i < kInputs; ++i) {
    half_slots[i] = __ushort_as_half(in->c[i]);
    pair_slots[i] = __halves2half2(__ushort_as_half(in->c[i]), __ushort_as_half(in->a[i]));
    bf_slots[i] = __ushort_as_bfloat16(in->bc[i]);
  }
  std::memset(out, 0xff, sizeof(unsigned long long) * kOperations * kInputs);  // poisoned
  compute<<<kInputs / 128, 128>>>(in, out, half_slots, pair_slots, bf_slots);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());

  if (write) {
    FILE* file = std::fopen(path, "w");
    if (!file) return std::perror(path), 1;
    std::fprintf(file, "# half_precision.cu results: seed %llx, %d inputs per operation\n", kSeed, kInputs);
    for (int op = 0; op < kOperations; ++op) {
      std::fprintf(file, "%s", kNames[op]);
      for (int i = 0; i < kInputs; ++i) std::fprintf(file, " %llx", out[(size_t)op * kInputs + i]);
      std::fprintf(file, "\n");
    }
    std::fclose(file);
    std::printf("wrote %d operations x %d inputs to %s\n", kOperations, kInputs, path);
    return 0;
  }
  FILE* file = std::fopen(path, "r");
  if (!file) return std::perror(path), 1;
  char line[1 << 16];
  int failed_operations = 0, checked = 0;
  while (std::fgets(line, sizeof line, file)) {
    if (line[0] == '#') continue;
    char* cursor = line;
    const std::string name = strtok(cursor, " \n");
    int op = -1;
    for (int k = 0; k < kOperations; ++k)
      if (name == kNames[k]) op = k;
    if (op < 0) {
      std::printf("%s: not computed by this program\n", name.c_str());
      ++failed_operations;
      continue;
    }
    int mismatches = 0;
    for (int i = 0; i < kInputs; ++i) {
      const char* token = strtok(nullptr, " \n");
      const unsigned long long want = token ? std::strtoull(token, nullptr, 16) : ~0ull;
      const unsigned long long got = out[(size_t)op * kInputs + i];
      if (got != want && mismatches++ < 4)
        std::printf("%s [%d]: got %llx, the GPU gave %llx (operands a=%04x b=%04x c=%04x f=%08x d=%016llx n=%d)\n",
                    name.c_str(), i, got, want, in->a[i], in->b[i], in->c[i], *reinterpret_cast<unsigned*>(&in->f[i]),
                    *reinterpret_cast<unsigned long long*>(&in->d[i]), in->n[i]);
    }
    if (mismatches) {
      std::printf("%s: %d of %d results differ\n", name.c_str(), mismatches, kInputs);
      ++failed_operations;
    }
    ++checked;
  }
  std::fclose(file);
  if (checked != kOperations) {
    std::printf("FAILED: %s has %d of the %d operations\n", path, checked, kOperations);
    return 1;
  }
  if (failed_operations) {
    std::printf("FAILED: %d of %d operations differ from the GPU\n", failed_operations, kOperations);
    return 1;
  }
  std::printf("half precision: %d operations x %d inputs agree with the GPU bit for bit\n", kOperations, kInputs);
  return 0;
}
