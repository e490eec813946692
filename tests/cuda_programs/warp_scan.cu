// Inclusive prefix sum of a large array in three kernels, as the scan samples
// do: each block scans its tile with warp shuffles (__shfl_up_sync) and shared
// memory, the block totals are scanned by one block, then added back. The
// last block is partial. A second kernel checks cg::inclusive_scan and
// cg::exclusive_scan on warp tiles.
#include <cooperative_groups.h>
#include <cooperative_groups/scan.h>
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

constexpr int kBlock = 256;

__device__ int warp_inclusive(int v) {
  const unsigned lane = threadIdx.x % warpSize;
  for (int offset = 1; offset < 32; offset *= 2) {
    int up = __shfl_up_sync(0xffffffffu, v, offset);
    if (lane >= offset) v += up;
  }
  return v;
}

__global__ void scan_blocks(const int* in, int* out, int* block_totals, int n) {
  __shared__ int warp_totals[kBlock / 32];
  const int i = blockIdx.x * kBlock + threadIdx.x;
  int v = i < n ? in[i] : 0;
  v = warp_inclusive(v);
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (lane == 31) warp_totals[warp] = v;
  __syncthreads();
  if (warp == 0) {
    int t = lane < kBlock / 32 ? warp_totals[lane] : 0;
    t = warp_inclusive(t);
    if (lane < kBlock / 32) warp_totals[lane] = t;
  }
  __syncthreads();
  if (warp > 0) v += warp_totals[warp - 1];
  if (i < n) out[i] = v;
  if (threadIdx.x == kBlock - 1) block_totals[blockIdx.x] = v;
}

__global__ void scan_totals(int* totals, int count) {
  // one block, serial over chunks of kBlock
  __shared__ int carry;
  if (threadIdx.x == 0) carry = 0;
  __syncthreads();
  for (int base = 0; base < count; base += kBlock) {
    const int i = base + threadIdx.x;
    int v = i < count ? totals[i] : 0;
    int s = warp_inclusive(v);
    __shared__ int sums[kBlock / 32];
    if (threadIdx.x % 32 == 31) sums[threadIdx.x / 32] = s;
    __syncthreads();
    int before = carry;
    for (int w = 0; w < (int)threadIdx.x / 32; ++w) before += sums[w];
    if (i < count) totals[i] = s + before;
    __syncthreads();
    if (threadIdx.x == kBlock - 1) carry = s + before;
    __syncthreads();
  }
}

__global__ void add_offsets(int* out, const int* scanned_totals, int n) {
  const int i = blockIdx.x * kBlock + threadIdx.x;
  if (blockIdx.x > 0 && i < n) out[i] += scanned_totals[blockIdx.x - 1];
}

__global__ void tile_scans(const int* in, int* inclusive, int* exclusive, int n) {
  auto tile = cg::tiled_partition<16>(cg::this_thread_block());
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int v = i < n ? in[i] : 0;
  const int inc = cg::inclusive_scan(tile, v);
  const int exc = cg::exclusive_scan(tile, v, cg::plus<int>());
  if (i < n) {
    inclusive[i] = inc;
    exclusive[i] = exc;
  }
}

int main() {
  const int n = 200000 + 77;
  const int blocks = (n + kBlock - 1) / kBlock;
  std::vector<int> host(n);
  for (int i = 0; i < n; ++i) host[i] = (i * 37 + 11) % 9 - 4;
  int *d_in, *d_out, *d_totals, *d_inc, *d_exc;
  CHECK(cudaMalloc(&d_in, n * sizeof(int)));
  CHECK(cudaMalloc(&d_out, n * sizeof(int)));
  CHECK(cudaMalloc(&d_totals, blocks * sizeof(int)));
  CHECK(cudaMalloc(&d_inc, n * sizeof(int)));
  CHECK(cudaMalloc(&d_exc, n * sizeof(int)));
  CHECK(cudaMemcpy(d_in, host.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  scan_blocks<<<blocks, kBlock>>>(d_in, d_out, d_totals, n);
  scan_totals<<<1, kBlock>>>(d_totals, blocks);
  add_offsets<<<blocks, kBlock>>>(d_out, d_totals, n);
  tile_scans<<<(n + 127) / 128, 128>>>(d_in, d_inc, d_exc, n);
  CHECK(cudaGetLastError());
  std::vector<int> out(n), inc(n), exc(n);
  CHECK(cudaMemcpy(out.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(inc.data(), d_inc, n * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(exc.data(), d_exc, n * sizeof(int), cudaMemcpyDeviceToHost));
  int running = 0, tile_running = 0;
  for (int i = 0; i < n; ++i) {
    if (i % 16 == 0) tile_running = 0;
    running += host[i];
    if (out[i] != running) {
      std::printf("scan[%d]: got %d, expected %d\n", i, out[i], running);
      return 1;
    }
    if (exc[i] != tile_running || inc[i] != tile_running + host[i]) {
      std::printf("tile scan[%d]: got %d/%d, expected %d/%d\n", i, inc[i], exc[i], tile_running + host[i],
                  tile_running);
      return 1;
    }
    tile_running += host[i];
  }
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  CHECK(cudaFree(d_totals));
  CHECK(cudaFree(d_inc));
  CHECK(cudaFree(d_exc));
  std::printf("warp_scan: PASS (%d elements)\n", n);
  return 0;
}
