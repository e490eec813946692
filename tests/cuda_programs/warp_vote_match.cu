// Warp and block votes and bit intrinsics on a segmented run-length problem:
// __match_any_sync groups a warp's lanes by value, __ffs/__popc of the match mask
// elect and size each group, __any_sync/__all_sync/__activemask answer per-warp
// questions inside a divergent branch, __syncthreads_or/__syncthreads_and answer
// per-block ones, and __brev/__clz/__byte_perm transform the keys. Host reference.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define THREADS 128
#define BLOCKS 40
#define N (THREADS * BLOCKS)
#define FULL 0xffffffffu

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e)); exit(1); } } while (0)

struct WarpFacts { int leaders, any_big, all_even, active_in_branch; };

__global__ void votes(const unsigned* keys, int* group_size, WarpFacts* facts, int* block_flags, unsigned* bits) {
  int i = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x & 31, warp = i >> 5;
  unsigned k = keys[i];
  unsigned same = __match_any_sync(FULL, k);  // lanes holding the same key
  bool leader = (__ffs(same) - 1) == lane;     // the lowest such lane
  group_size[i] = leader ? __popc(same) : 0;
  unsigned leaders = __ballot_sync(FULL, leader);
  int any_big = __any_sync(FULL, k > 12);
  int all_even = __all_sync(FULL, (k & 1) == 0);
  int active = 0;
  if (k & 1) active = __popc(__activemask());  // lanes with odd keys, together (Volta+: at least themselves)
  unsigned odd_lanes = __ballot_sync(FULL, k & 1);
  int too_many = __any_sync(FULL, (k & 1) && active > __popc(odd_lanes));  // never more than the branch
  if (lane == 0) facts[warp] = {__popc(leaders), any_big, all_even, too_many ? -1 : __popc(odd_lanes)};
  int some_zero = __syncthreads_or(k == 0), none_zero = __syncthreads_and(k != 0);
  if (threadIdx.x == 0) block_flags[blockIdx.x] = some_zero * 2 + none_zero;
  bits[i] = __brev(k) ^ (unsigned)__clz(k + 1) ^ __byte_perm(k, 0x12345678u, 0x7531);
}

int main() {
  unsigned* h_keys = (unsigned*)malloc(N * sizeof(unsigned));
  srand(31337);
  for (int i = 0; i < N; i++) h_keys[i] = (i / 32 % 5 == 0) ? 2 * (rand() % 8) : rand() % 16;  // some all-even warps
  for (int i = 7 * THREADS; i < 8 * THREADS; i++) h_keys[i] |= 1;  // block 7 has no zero
  unsigned *d_keys, *d_bits;
  int *d_size, *d_flags;
  WarpFacts* d_facts;
  CHECK(cudaMalloc((void**)&d_keys, N * sizeof(unsigned)));
  CHECK(cudaMalloc((void**)&d_bits, N * sizeof(unsigned)));
  CHECK(cudaMalloc((void**)&d_size, N * sizeof(int)));
  CHECK(cudaMalloc((void**)&d_flags, BLOCKS * sizeof(int)));
  CHECK(cudaMalloc((void**)&d_facts, (N / 32) * sizeof(WarpFacts)));
  CHECK(cudaMemcpy(d_keys, h_keys, N * sizeof(unsigned), cudaMemcpyHostToDevice));
  votes<<<BLOCKS, THREADS>>>(d_keys, d_size, d_facts, d_flags, d_bits);
  CHECK(cudaGetLastError());
  int *h_size = (int*)malloc(N * sizeof(int)), h_flags[BLOCKS];
  unsigned* h_bits = (unsigned*)malloc(N * sizeof(unsigned));
  WarpFacts* h_facts = (WarpFacts*)malloc((N / 32) * sizeof(WarpFacts));
  CHECK(cudaMemcpy(h_size, d_size, N * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(h_bits, d_bits, N * sizeof(unsigned), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(h_flags, d_flags, sizeof h_flags, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(h_facts, d_facts, (N / 32) * sizeof(WarpFacts), cudaMemcpyDeviceToHost));

  int errors = 0;
  for (int w = 0; w < N / 32; w++) {
    const unsigned* k = &h_keys[w * 32];
    int leaders = 0, any_big = 0, all_even = 1, odd = 0;
    for (int l = 0; l < 32; l++) {
      int first = l, count = 0;
      for (int m = 0; m < 32; m++) if (k[m] == k[l]) { count++; if (m < first) first = m; }
      int expect = first == l ? count : 0;
      leaders += first == l;
      if (h_size[w * 32 + l] != expect && errors++ < 10) printf("lane %d of warp %d: group %d, expected %d\n", l, w, h_size[w * 32 + l], expect);
      any_big |= k[l] > 12; all_even &= (k[l] & 1) == 0; odd += k[l] & 1;
      unsigned x = k[l], rev = 0;
      for (int b = 0; b < 32; b++) if (x & (1u << b)) rev |= 1u << (31 - b);
      int clz = 0;
      for (int b = 31; b >= 0 && !((x + 1) & (1u << b)); b--) clz++;
      unsigned long long both = ((unsigned long long)0x12345678u << 32) | x;  // __byte_perm's 8 bytes
      unsigned perm = 0;
      for (int s = 0; s < 4; s++) perm |= (unsigned)((both >> (8 * ((0x7531 >> (4 * s)) & 7))) & 0xff) << (8 * s);
      if (h_bits[w * 32 + l] != (rev ^ (unsigned)clz ^ perm) && errors++ < 10) printf("bits of key %u: %08x\n", x, h_bits[w * 32 + l]);
    }
    WarpFacts f = h_facts[w];
    if ((f.leaders != leaders || f.any_big != any_big || f.all_even != all_even || f.active_in_branch != odd) && errors++ < 10)
      printf("warp %d: %d %d %d %d, expected %d %d %d %d\n", w, f.leaders, f.any_big, f.all_even, f.active_in_branch, leaders, any_big, all_even, odd);
  }
  for (int b = 0; b < BLOCKS; b++) {
    int zero = 0;
    for (int t = 0; t < THREADS; t++) zero |= h_keys[b * THREADS + t] == 0;
    if (h_flags[b] != zero * 2 + !zero && errors++ < 10) printf("block %d: flags %d\n", b, h_flags[b]);
  }
  cudaFree(d_keys); cudaFree(d_bits); cudaFree(d_size); cudaFree(d_flags); cudaFree(d_facts);
  free(h_keys); free(h_size); free(h_bits); free(h_facts);
  if (errors) { printf("Test failed\n"); return 1; }
  printf("Test passed\n");
  return 0;
}
