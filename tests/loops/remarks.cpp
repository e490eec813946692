// Compiled by the `loops_remarks` test only: the pass must say, at compile
// time, which kernel it keeps on fibers, where and why, and which it lowers
// (one resume point per block, or per thread where a barrier is in thread-dependent control flow).
#include <cohort/cohort.hpp>

__global__ void remark_shuffle(const float* in, float* out) {
  const float v = in[threadIdx.x];
  if (v > 0) out[threadIdx.x] = __shfl_down_sync(0xffffffffu, v, 1);
}

__global__ void remark_lowered(const float* in, float* out) {
  __shared__ float values[256];
  values[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = values[255 - threadIdx.x];
}

__global__ void remark_divergent(float* out) {
  for (unsigned k = 0; k < threadIdx.x % 3; ++k) __syncthreads();
  out[threadIdx.x] = 1.0f;
}

__global__ void remark_warp_sum(const float* in, float* out) {
  float v = in[threadIdx.x];
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  out[threadIdx.x] = v;
}

// A vote, a reduction, __syncwarp and __match_any_sync with constant masks on the lane arrays.
__global__ void remark_votes(const int* in, int* out) {
  const int v = in[threadIdx.x];
  const unsigned long long voters = __ballot_sync(0xffffffffu, v > 0);
  __syncwarp();
  const int sum = __reduce_add_sync(0xffffffffu, v);
  out[threadIdx.x] = sum + static_cast<int>(voters & 1) + static_cast<int>(__match_any_sync(0xffffffffu, v) & 1);
}

// Collectives only some warps reach, each warp whole: regions per warp,
// proven from threadIdx.x (warps in one row of it) and from the rank alone.
__global__ void remark_first_warp(const float* in, float* out) {
  float v = in[threadIdx.x];
  if (threadIdx.x < 32) v += __shfl_down_sync(0xffffffffu, v, 1);
  out[threadIdx.x] = v;
}

__global__ void remark_tile_leader(const float* in, float* out) {
  const auto tile = cohort::tiled_partition<32>(cohort::this_thread_block());
  float v = in[tile.thread_rank()];
  if (tile.meta_group_rank() == 1) v += tile.shfl_xor(v, 1);
  out[threadIdx.x] = v;
}
