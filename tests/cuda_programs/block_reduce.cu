// Sum of an array: each block reduces its slice in shared memory (a tree,
// then the last warp with shuffles through a tile), one atomicAdd per block.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
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

template <unsigned BlockSize>
__global__ void block_sum(const int* in, unsigned long long* total, int n) {
  extern __shared__ int partial[];
  cg::thread_block block = cg::this_thread_block();
  int sum = 0;
  for (int i = blockIdx.x * BlockSize + threadIdx.x; i < n; i += BlockSize * gridDim.x) sum += in[i];
  partial[threadIdx.x] = sum;
  block.sync();
#pragma unroll
  for (unsigned stride = BlockSize / 2; stride >= 32; stride /= 2) {
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    block.sync();
  }
  if (threadIdx.x < 32) {
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    int v = partial[threadIdx.x];
    for (int offset = 16; offset > 0; offset /= 2) v += warp.shfl_down(v, offset);
    if (warp.thread_rank() == 0) atomicAdd(total, static_cast<unsigned long long>(v));
  }
}

// The same sum with cg::reduce on a warp tile, for comparison.
__global__ void tile_sum(const int* in, unsigned long long* total, int n) {
  cg::thread_block block = cg::this_thread_block();
  auto tile = cg::tiled_partition<32>(block);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? in[i] : 0;
  int s = cg::reduce(tile, v, cg::plus<int>());
  if (tile.thread_rank() == 0) atomicAdd(total, static_cast<unsigned long long>(s));
}

int main() {
  const int n = 1 << 16 | 123;
  std::vector<int> host(n);
  unsigned long long expected = 0;
  srand(7);
  for (int& v : host) {
    v = rand() % 1000;
    expected += v;
  }
  int* d_in;
  unsigned long long* d_total;
  CHECK(cudaMalloc(&d_in, n * sizeof(int)));
  CHECK(cudaMalloc(&d_total, sizeof(unsigned long long)));
  CHECK(cudaMemcpy(d_in, host.data(), n * sizeof(int), cudaMemcpyHostToDevice));

  constexpr unsigned threads = 256;
  CHECK(cudaMemset(d_total, 0, sizeof(unsigned long long)));
  block_sum<threads><<<64, threads, threads * sizeof(int)>>>(d_in, d_total, n);
  CHECK(cudaGetLastError());
  unsigned long long got = 0;
  CHECK(cudaMemcpy(&got, d_total, sizeof got, cudaMemcpyDeviceToHost));
  if (got != expected) {
    std::printf("block_sum: got %llu, expected %llu\n", got, expected);
    return 1;
  }

  CHECK(cudaMemset(d_total, 0, sizeof(unsigned long long)));
  tile_sum<<<(n + 127) / 128, 128>>>(d_in, d_total, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(&got, d_total, sizeof got, cudaMemcpyDeviceToHost));
  if (got != expected) {
    std::printf("tile_sum: got %llu, expected %llu\n", got, expected);
    return 1;
  }
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_total));
  std::printf("block_reduce: PASS (%llu)\n", expected);
  return 0;
}
