// CUDA's integer math functions in a kernel, each checked against a plain
// host computation of what the CUDA Math API documents: the typed min/max
// (umin, llmax, ...), high halves of products, 24-bit products, sums of
// absolute differences, byte permutes, bit reversal and counts, funnel
// shifts, halving adds, dot products and the SIMD-within-a-word functions.
#include <cstdio>
#include <cstdlib>
#include <cstdint>

#define CHECK(call)                                                                       \
  do {                                                                                    \
    cudaError_t err_ = (call);                                                            \
    if (err_ != cudaSuccess) {                                                            \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_)); \
      std::exit(1);                                                                       \
    }                                                                                     \
  } while (0)

constexpr int kResults = 40;

__global__ void integer_functions(const unsigned* a, const unsigned* b, unsigned long long* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const unsigned x = a[i], y = b[i];
  const int sx = (int)x, sy = (int)y;
  const long long lx = ((long long)x << 31) ^ y, ly = ((long long)y << 29) ^ x;
  unsigned long long* r = out + (size_t)i * kResults;
  r[0] = umin(x, y);
  r[1] = umax(x, y);
  r[2] = (unsigned long long)llmin(lx, -ly);
  r[3] = (unsigned long long)llmax(lx, -ly);
  r[4] = ullmin((unsigned long long)lx * 977, (unsigned long long)ly * 131);
  r[5] = ullmax((unsigned long long)lx * 977, (unsigned long long)ly * 131);
  r[6] = (unsigned)__mulhi(sx, sy);
  r[7] = __umulhi(x, y);
  // Wrapping products, as a GPU's: formed in unsigned arithmetic (signed overflow is undefined in C++).
  r[8] = (unsigned long long)__mul64hi((long long)((unsigned long long)lx * 7919u),
                                       (long long)(0ull - (unsigned long long)ly * 104729u));
  r[9] = __umul64hi((unsigned long long)lx * 7919, (unsigned long long)ly * 104729);
  r[10] = (unsigned)__mul24(sx, sy);
  r[11] = __umul24(x, y);
  r[12] = __sad(sx, sy, 7u);
  r[13] = __usad(x, y, 11u);
  r[14] = __byte_perm(x, y, y & 0x7777);
  r[15] = __brev(x);
  r[16] = __brevll((unsigned long long)lx);
  r[17] = (unsigned)__clz(sx);
  r[18] = (unsigned)__clzll(lx);
  r[19] = (unsigned)__ffs(sy);
  r[20] = (unsigned)__ffsll(ly);
  r[21] = (unsigned)__popc(x);
  r[22] = (unsigned)__popcll((unsigned long long)ly);
  r[23] = __funnelshift_l(x, y, y % 40);
  r[24] = __funnelshift_lc(x, y, y % 40);
  r[25] = __funnelshift_r(x, y, x % 40);
  r[26] = __funnelshift_rc(x, y, x % 40);
  r[27] = (unsigned)__hadd(sx, sy);
  r[28] = (unsigned)__rhadd(sx, sy);
  r[29] = __uhadd(x, y);
  r[30] = __urhadd(x, y);
  r[31] = (unsigned)__dp4a(sx, sy, 5);
  r[32] = __vabsdiffu4(x, y);
  r[33] = __vabsdiffs2(x, y);
  r[34] = __vadd4(x, y);
  r[35] = __vsubss2(x, y);
  r[36] = __vmaxu4(x, y);
  r[37] = __vcmpgts4(x, y);
  r[38] = __vsadu4(x, y);
  r[39] = (unsigned)min(sx, (int)y) ^ (unsigned)max(x, 3u);  // CUDA's min/max on mixed types
}

// The host's reading of each function, written from its documentation.
namespace ref {
unsigned long long high64(long long a, long long b) { return (unsigned long long)(((__int128)a * b) >> 64); }
unsigned long long uhigh64(unsigned long long a, unsigned long long b) {
  return (unsigned long long)(((unsigned __int128)a * b) >> 64);
}
int s24(unsigned v) { return (int)(v << 8) >> 8; }
unsigned brev(unsigned v) {
  unsigned r = 0;
  for (int i = 0; i < 32; ++i) r |= ((v >> i) & 1u) << (31 - i);
  return r;
}
int clz64(unsigned long long v) {
  int n = 0;
  for (int i = 63; i >= 0 && !((v >> i) & 1); --i) ++n;
  return n;
}
int ffs64(unsigned long long v) {
  for (int i = 0; i < 64; ++i)
    if ((v >> i) & 1) return i + 1;
  return 0;
}
int pop64(unsigned long long v) {
  int n = 0;
  for (; v; v >>= 1) n += (int)(v & 1);
  return n;
}
unsigned lane(unsigned v, int bits, int i) { return (v >> (bits * i)) & ((1u << bits) - 1); }
int slane(unsigned v, int bits, int i) {
  const int u = (int)lane(v, bits, i);
  return u >= (1 << (bits - 1)) ? u - (1 << bits) : u;
}
void expected(unsigned x, unsigned y, unsigned long long* r) {
  const int sx = (int)x, sy = (int)y;
  const long long lx = ((long long)x << 31) ^ y, ly = ((long long)y << 29) ^ x;
  r[0] = x < y ? x : y;
  r[1] = x < y ? y : x;
  r[2] = (unsigned long long)(lx < -ly ? lx : -ly);
  r[3] = (unsigned long long)(lx < -ly ? -ly : lx);
  const unsigned long long ua = (unsigned long long)lx * 977, ub = (unsigned long long)ly * 131;
  r[4] = ua < ub ? ua : ub;
  r[5] = ua < ub ? ub : ua;
  r[6] = (unsigned)(int)(((long long)sx * sy) >> 32);
  r[7] = (unsigned)(((unsigned long long)x * y) >> 32);
  r[8] = high64((long long)((unsigned long long)lx * 7919u), (long long)(0ull - (unsigned long long)ly * 104729u));
  r[9] = uhigh64((unsigned long long)lx * 7919, (unsigned long long)ly * 104729);
  r[10] = (unsigned)((long long)s24(x) * s24(y));
  r[11] = (x & 0xffffff) * (y & 0xffffff);
  r[12] = 7u + (unsigned)(sx > sy ? (long long)sx - sy : (long long)sy - sx);
  r[13] = 11u + (x > y ? x - y : y - x);
  unsigned perm = 0;
  const unsigned long long bytes = ((unsigned long long)y << 32) | x;
  for (int i = 0; i < 4; ++i) perm |= (unsigned)((bytes >> (8 * ((y >> (4 * i)) & 7))) & 0xff) << (8 * i);
  r[14] = perm;
  r[15] = brev(x);
  r[16] = ((unsigned long long)brev((unsigned)lx) << 32) | brev((unsigned)((unsigned long long)lx >> 32));
  r[17] = (unsigned)clz64((unsigned long long)x << 32 | 0xffffffffu);
  r[18] = (unsigned)clz64((unsigned long long)lx);
  r[19] = (unsigned)ffs64(y);
  r[20] = (unsigned)ffs64((unsigned long long)ly);
  r[21] = (unsigned)pop64(x);
  r[22] = (unsigned)pop64((unsigned long long)ly);
  const unsigned long long hilo = ((unsigned long long)y << 32) | x;
  r[23] = (unsigned)((hilo << ((y % 40) & 31)) >> 32);
  r[24] = (unsigned)((hilo << ((y % 40) > 32 ? 32 : (y % 40))) >> 32);
  r[25] = (unsigned)(hilo >> ((x % 40) & 31));
  r[26] = (unsigned)(hilo >> ((x % 40) > 32 ? 32 : (x % 40)));
  r[27] = (unsigned)(int)(((long long)sx + sy) >> 1);
  r[28] = (unsigned)(int)(((long long)sx + sy + 1) >> 1);
  r[29] = (unsigned)(((unsigned long long)x + y) >> 1);
  r[30] = (unsigned)(((unsigned long long)x + y + 1) >> 1);
  int dot = 5;
  for (int i = 0; i < 4; ++i) dot += slane(x, 8, i) * slane(y, 8, i);
  r[31] = (unsigned)dot;
  unsigned v32 = 0, v33 = 0, v34 = 0, v35 = 0, v36 = 0, v37 = 0, v38 = 0;
  for (int i = 0; i < 4; ++i) {
    const unsigned p = lane(x, 8, i), q = lane(y, 8, i);
    v32 |= (p > q ? p - q : q - p) << (8 * i);
    v34 |= ((p + q) & 0xff) << (8 * i);
    v36 |= (p > q ? p : q) << (8 * i);
    v37 |= (slane(x, 8, i) > slane(y, 8, i) ? 0xffu : 0u) << (8 * i);
    v38 += p > q ? p - q : q - p;
  }
  for (int i = 0; i < 2; ++i) {
    const int p = slane(x, 16, i), q = slane(y, 16, i);
    v33 |= ((unsigned)(p > q ? p - q : q - p) & 0xffff) << (16 * i);
    int d = p - q;
    d = d < -32768 ? -32768 : (d > 32767 ? 32767 : d);
    v35 |= ((unsigned)d & 0xffff) << (16 * i);
  }
  r[32] = v32;
  r[33] = v33;
  r[34] = v34;
  r[35] = v35;
  r[36] = v36;
  r[37] = v37;
  r[38] = v38;
  r[39] = (unsigned)(sx < (int)y ? sx : (int)y) ^ (x > 3u ? x : 3u);
}
}  // namespace ref

int main() {
  const int n = 1000;
  unsigned *a, *b;
  unsigned long long* out;
  CHECK(cudaMallocManaged(&a, n * sizeof(unsigned)));
  CHECK(cudaMallocManaged(&b, n * sizeof(unsigned)));
  CHECK(cudaMallocManaged(&out, (size_t)n * kResults * sizeof(unsigned long long)));
  unsigned long long seed = 0x9e3779b97f4a7c15ull;
  for (int i = 0; i < n; ++i) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    a[i] = (unsigned)(seed >> 32);
    b[i] = (unsigned)seed;
    if (i % 10 == 0) b[i] = a[i] >> (i % 31);  // near-equal and small values
    if (i % 17 == 0) a[i] = 0;
  }
  integer_functions<<<(n + 127) / 128, 128>>>(a, b, out, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  int errors = 0;
  for (int i = 0; i < n; ++i) {
    unsigned long long want[kResults];
    ref::expected(a[i], b[i], want);
    for (int k = 0; k < kResults; ++k)
      if (out[(size_t)i * kResults + k] != want[k] && errors++ < 10)
        std::printf("input %d (%08x, %08x), result %d: got %llx, expected %llx\n", i, a[i], b[i], k,
                    out[(size_t)i * kResults + k], want[k]);
  }
  CHECK(cudaFree(a));
  CHECK(cudaFree(b));
  CHECK(cudaFree(out));
  if (errors) {
    std::printf("FAILED: %d mismatches\n", errors);
    return 1;
  }
  std::printf("integer intrinsics: %d inputs x %d functions agree\n", n, kResults);
  return 0;
}
