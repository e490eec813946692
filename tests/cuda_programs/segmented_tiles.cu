// Segmented warp work, as libraries' small-segment kernels write it: shuffles
// with a width argument reduce and scan 8-lane segments, thread_block_tile<16>
// votes and matches, a lambda defined inside the kernel, grid and block
// geometry through cooperative groups (group_index, thread_index, dim_threads,
// num_blocks), cg::reduce with cg::greater for a block maximum, and
// cuda::atomic_ref and cuda::std::numeric_limits from libcu++.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda/atomic>
#include <cuda/std/limits>
#include <cstdio>
#include <cstdlib>

namespace cg = cooperative_groups;

#define SEG 8
#define THREADS 256
#define BLOCKS 48
#define N (THREADS * BLOCKS)

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)

__global__ void segments(const float* in, float* seg_sum, float* seg_scan, int* tile_info, float* block_max, int* global_min) {
  cg::grid_group grid = cg::this_grid();
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<16> tile16 = cg::tiled_partition<16>(block);
  int i = (int)(block.group_index().x * block.dim_threads().x + block.thread_index().x);
  float v = in[i];
  auto seg_lane = [&]() { return (int)(threadIdx.x % SEG); };  // a lambda in device code

  float s = v;  // 8-lane segment sum, every lane of the segment gets it
  for (int offset = SEG / 2; offset > 0; offset /= 2) s += __shfl_xor_sync(0xffffffff, s, offset, SEG);
  float x = v;  // 8-lane inclusive scan
  for (int offset = 1; offset < SEG; offset *= 2) {
    float y = __shfl_up_sync(0xffffffff, x, offset, SEG);
    if (seg_lane() >= offset) x += y;
  }
  if (seg_lane() == 0) seg_sum[i / SEG] = s;
  seg_scan[i] = x;

  int positive = tile16.ballot(v > 0.0f);
  unsigned same_sign = tile16.match_any(v > 0.0f ? 1 : 0);
  bool any_big = tile16.any(v > 0.9f), all_above = tile16.all(v > -2.0f);  // every lane takes part
  bool bad_match = tile16.any(__popc(same_sign) != (v > 0.0f ? __popc(positive) : 16 - __popc(positive)));
  if (tile16.thread_rank() == 0)
    tile_info[i / 16] = bad_match ? -1 : __popc(positive) * 100 + (any_big ? 10 : 0) + (all_above ? 1 : 0);

  float m = cg::reduce(tile16, v, cg::greater<float>());
  __shared__ float tile_max[THREADS / 16];
  if (tile16.thread_rank() == 0) tile_max[tile16.meta_group_rank()] = m;
  cg::sync(block);
  if (block.thread_rank() == 0) {
    float bm = cuda::std::numeric_limits<float>::lowest();
    for (int t = 0; t < THREADS / 16; t++) bm = fmaxf(bm, tile_max[t]);
    block_max[block.group_index().x] = bm;
  }
  int q = __float2int_rd(v * 1000.0f);
  cuda::atomic_ref<int, cuda::thread_scope_device> gmin(*global_min);
  gmin.fetch_min(q, cuda::memory_order_relaxed);
  if (grid.thread_rank() == 0 && grid.num_blocks() != BLOCKS) *global_min = cuda::std::numeric_limits<int>::max();
}

int main() {
  float* h_in = (float*)malloc(N * sizeof(float));
  srand(999);
  for (int i = 0; i < N; i++) h_in[i] = (float)(rand() % 2000 - 1000) / 1000.0f;
  float *d_in, *d_sum, *d_scan, *d_max;
  int *d_info, *d_min;
  CHECK(cudaMalloc((void**)&d_in, N * sizeof(float)));
  CHECK(cudaMalloc((void**)&d_sum, (N / SEG) * sizeof(float)));
  CHECK(cudaMalloc((void**)&d_scan, N * sizeof(float)));
  CHECK(cudaMalloc((void**)&d_info, (N / 16) * sizeof(int)));
  CHECK(cudaMalloc((void**)&d_max, BLOCKS * sizeof(float)));
  CHECK(cudaMalloc((void**)&d_min, sizeof(int)));
  CHECK(cudaMemcpy(d_in, h_in, N * sizeof(float), cudaMemcpyHostToDevice));
  int start_min = 1 << 30;
  CHECK(cudaMemcpy(d_min, &start_min, sizeof(int), cudaMemcpyHostToDevice));
  segments<<<BLOCKS, THREADS>>>(d_in, d_sum, d_scan, d_info, d_max, d_min);
  CHECK(cudaGetLastError());
  float *sum = (float*)malloc((N / SEG) * sizeof(float)), *scan = (float*)malloc(N * sizeof(float)), maxes[BLOCKS];
  int* info = (int*)malloc((N / 16) * sizeof(int));
  int gmin;
  CHECK(cudaMemcpy(sum, d_sum, (N / SEG) * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(scan, d_scan, N * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(info, d_info, (N / 16) * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(maxes, d_max, sizeof maxes, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&gmin, d_min, sizeof(int), cudaMemcpyDeviceToHost));
  int errors = 0, ref_min = 1 << 30;
  for (int sgm = 0; sgm < N / SEG; sgm++) {
    float run = 0;
    for (int k = 0; k < SEG; k++) {
      run += h_in[sgm * SEG + k];
      if (fabsf(scan[sgm * SEG + k] - run) > 1e-5f && errors++ < 10) printf("scan %d: %f, expected %f\n", sgm * SEG + k, scan[sgm * SEG + k], run);
    }
    if (fabsf(sum[sgm] - run) > 1e-5f && errors++ < 10) printf("segment %d: %f, expected %f\n", sgm, sum[sgm], run);
  }
  for (int t = 0; t < N / 16; t++) {
    int pos = 0, big = 0, all = 1;
    for (int k = 0; k < 16; k++) { float v = h_in[t * 16 + k]; pos += v > 0; big |= v > 0.9f; all &= v > -2.0f; }
    if (info[t] != pos * 100 + big * 10 + all && errors++ < 10) printf("tile %d: %d, expected %d\n", t, info[t], pos * 100 + big * 10 + all);
  }
  for (int b = 0; b < BLOCKS; b++) {
    float m = -1e30f;
    for (int k = 0; k < THREADS; k++) m = fmaxf(m, h_in[b * THREADS + k]);
    if (maxes[b] != m && errors++ < 10) printf("block %d: max %f, expected %f\n", b, maxes[b], m);
  }
  for (int i = 0; i < N; i++) { int q = (int)floorf(h_in[i] * 1000.0f); if (q < ref_min) ref_min = q; }
  if (gmin != ref_min) { printf("minimum %d, expected %d\n", gmin, ref_min); errors++; }
  cudaFree(d_in); cudaFree(d_sum); cudaFree(d_scan); cudaFree(d_info); cudaFree(d_max); cudaFree(d_min);
  free(h_in); free(sum); free(scan); free(info);
  if (errors) { printf("Test failed\n"); return 1; }
  printf("Test passed\n");
  return 0;
}
