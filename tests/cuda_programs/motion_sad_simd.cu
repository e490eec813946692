// Block-matching motion estimation with the SIMD video intrinsics: for every
// 16 x 16 macroblock of the current frame, one thread per candidate motion
// vector in a +-4 pixel window computes the sum of absolute differences four
// pixels at a time with __vsadu4, and the largest pixel difference with
// __vabsdiffu4/__vmaxu4; the block picks the best vector in shared memory.
// Exact comparison with the host's full search.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define W 128
#define H 96
#define MB 16
#define RANGE 4
#define CANDIDATES ((2 * RANGE + 1) * (2 * RANGE + 1))

#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { \
  fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); exit(1); } } while (0)

__device__ __host__ inline unsigned pack4(const unsigned char* p) { return p[0] | p[1] << 8 | p[2] << 16 | (unsigned)p[3] << 24; }

__global__ void block_match(const unsigned char* cur, const unsigned char* ref, int2* best_mv, unsigned* best_sad, unsigned* max_diff) {
  __shared__ unsigned sad[CANDIDATES];
  __shared__ unsigned peak[CANDIDATES];
  int mbx = blockIdx.x * MB, mby = blockIdx.y * MB, c = threadIdx.x;
  int dx = c % (2 * RANGE + 1) - RANGE, dy = c / (2 * RANGE + 1) - RANGE;
  unsigned s = 0xffffffffu, m = 0;
  if (mbx + dx >= 0 && mbx + dx + MB <= W && mby + dy >= 0 && mby + dy + MB <= H) {
    s = 0;
    unsigned peak4 = 0;
    for (int row = 0; row < MB; row++)
      for (int col = 0; col < MB; col += 4) {
        unsigned a = pack4(&cur[(mby + row) * W + mbx + col]);
        unsigned b = pack4(&ref[(mby + dy + row) * W + mbx + dx + col]);
        s = __vsadu4(a, b) + s;
        peak4 = __vmaxu4(peak4, __vabsdiffu4(a, b));
      }
    for (int k = 0; k < 4; k++) m = max(m, (peak4 >> (8 * k)) & 0xffu);
  }
  sad[c] = s;
  peak[c] = m;
  __syncthreads();
  if (c == 0) {
    int best = 0;
    for (int k = 1; k < CANDIDATES; k++)
      if (sad[k] < sad[best]) best = k;
    int mb = blockIdx.y * gridDim.x + blockIdx.x;
    best_mv[mb] = make_int2(best % (2 * RANGE + 1) - RANGE, best / (2 * RANGE + 1) - RANGE);
    best_sad[mb] = sad[best];
    max_diff[mb] = peak[best];
  }
}

int main() {
  unsigned char *cur = (unsigned char*)malloc(W * H), *ref = (unsigned char*)malloc(W * H);
  srand(1999);
  for (int i = 0; i < W * H; i++) ref[i] = (unsigned char)(rand() % 256);
  for (int y = 0; y < H; y++)  // the scene moves by (-2, +1), plus a little noise
    for (int x = 0; x < W; x++) {
      int sx = x - 2 < 0 ? 0 : x - 2, sy = y + 1 >= H ? H - 1 : y + 1;
      int v = ref[sy * W + sx] + rand() % 7 - 3;
      cur[y * W + x] = (unsigned char)(v < 0 ? 0 : v > 255 ? 255 : v);
    }
  const int mbs = (W / MB) * (H / MB);
  unsigned char *d_cur, *d_ref;
  int2* d_mv;
  unsigned *d_sad, *d_peak;
  CHECK(cudaMalloc((void**)&d_cur, W * H));
  CHECK(cudaMalloc((void**)&d_ref, W * H));
  CHECK(cudaMalloc((void**)&d_mv, mbs * sizeof(int2)));
  CHECK(cudaMalloc((void**)&d_sad, mbs * sizeof(unsigned)));
  CHECK(cudaMalloc((void**)&d_peak, mbs * sizeof(unsigned)));
  CHECK(cudaMemcpy(d_cur, cur, W * H, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_ref, ref, W * H, cudaMemcpyHostToDevice));
  block_match<<<dim3(W / MB, H / MB), CANDIDATES>>>(d_cur, d_ref, d_mv, d_sad, d_peak);
  CHECK(cudaGetLastError());
  int2 mv[mbs];
  unsigned sad[mbs], peak[mbs];
  CHECK(cudaMemcpy(mv, d_mv, sizeof mv, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(sad, d_sad, sizeof sad, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(peak, d_peak, sizeof peak, cudaMemcpyDeviceToHost));
  int errors = 0, moved = 0;
  for (int mb = 0; mb < mbs; mb++) {
    int mbx = mb % (W / MB) * MB, mby = mb / (W / MB) * MB;
    unsigned best = 0xffffffffu, best_peak = 0;
    int bdx = 0, bdy = 0;
    for (int dy = -RANGE; dy <= RANGE; dy++)
      for (int dx = -RANGE; dx <= RANGE; dx++) {
        if (mbx + dx < 0 || mbx + dx + MB > W || mby + dy < 0 || mby + dy + MB > H) continue;
        unsigned s = 0, p = 0;
        for (int r = 0; r < MB; r++)
          for (int c = 0; c < MB; c++) {
            int d = abs(cur[(mby + r) * W + mbx + c] - ref[(mby + dy + r) * W + mbx + dx + c]);
            s += d;
            if ((unsigned)d > p) p = d;
          }
        if (s < best) { best = s; best_peak = p; bdx = dx; bdy = dy; }  // scan order matches the device's
      }
    moved += bdx == -2 && bdy == 1;
    if ((mv[mb].x != bdx || mv[mb].y != bdy || sad[mb] != best || peak[mb] != best_peak) && errors++ < 10)
      printf("macroblock %d: (%d,%d) sad %u peak %u, expected (%d,%d) %u %u\n", mb, mv[mb].x, mv[mb].y, sad[mb], peak[mb], bdx, bdy, best, best_peak);
  }
  printf("%d of %d macroblocks found the motion (-2, +1)\n", moved, mbs);
  cudaFree(d_cur); cudaFree(d_ref); cudaFree(d_mv); cudaFree(d_sad); cudaFree(d_peak);
  free(cur); free(ref);
  if (errors || moved < mbs / 2) { printf("Test failed\n"); return 1; }
  printf("Test passed\n");
  return 0;
}
