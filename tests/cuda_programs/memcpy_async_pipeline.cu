// A block-wide pipeline with cooperative groups' memcpy_async: each block
// copies chunks of the input into shared memory asynchronously, double
// buffered (wait_prior<1> waits for all but the latest copy), and sums them;
// one block per chunk stream. Also the untyped (void*) form of memcpy_async
// with cuda::aligned_size_t.
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cooperative_groups/reduce.h>
#include <cuda/barrier>
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

constexpr int kChunk = 512;

__global__ void staged_sums(const int* in, int chunks_per_block, long long* sums) {
  __shared__ int stage[2][kChunk];
  cg::thread_block block = cg::this_thread_block();
  const int* base = in + (size_t)blockIdx.x * chunks_per_block * kChunk;
  long long local = 0;
  cg::memcpy_async(block, stage[0], base, sizeof(int) * kChunk);
  for (int c = 0; c < chunks_per_block; ++c) {
    if (c + 1 < chunks_per_block)
      cg::memcpy_async(block, stage[(c + 1) % 2], base + (c + 1) * kChunk, sizeof(int) * kChunk);
    if (c + 1 < chunks_per_block)
      cg::wait_prior<1>(block);
    else
      cg::wait(block);
    for (int i = threadIdx.x; i < kChunk; i += blockDim.x) local += stage[c % 2][i];
    block.sync();
  }
  auto warp = cg::tiled_partition<32>(block);
  local = cg::reduce(warp, local, cg::plus<long long>());
  if (warp.thread_rank() == 0) atomicAdd(reinterpret_cast<unsigned long long*>(&sums[blockIdx.x]), (unsigned long long)local);
}

__global__ void untyped_copy(const float* in, float* out) {
  __shared__ alignas(16) float buffer[256];
  cg::thread_block block = cg::this_thread_block();
  cg::memcpy_async(block, (void*)buffer, (const void*)(in + blockIdx.x * 256), cuda::aligned_size_t<16>(sizeof buffer));
  cg::wait(block);
  out[blockIdx.x * 256 + threadIdx.x] = 2.0f * buffer[255 - threadIdx.x];
}

int main() {
  const int blocks = 12, chunks_per_block = 9, n = blocks * chunks_per_block * kChunk;
  std::vector<int> host(n);
  for (int i = 0; i < n; ++i) host[i] = (i * 31) % 1001 - 500;
  int* d_in;
  long long* d_sums;
  CHECK(cudaMalloc(&d_in, n * sizeof(int)));
  CHECK(cudaMalloc(&d_sums, blocks * sizeof(long long)));
  CHECK(cudaMemcpy(d_in, host.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_sums, 0, blocks * sizeof(long long)));
  staged_sums<<<blocks, 128>>>(d_in, chunks_per_block, d_sums);
  CHECK(cudaGetLastError());
  std::vector<long long> sums(blocks);
  CHECK(cudaMemcpy(sums.data(), d_sums, blocks * sizeof(long long), cudaMemcpyDeviceToHost));
  for (int b = 0; b < blocks; ++b) {
    long long expected = 0;
    for (int i = 0; i < chunks_per_block * kChunk; ++i) expected += host[b * chunks_per_block * kChunk + i];
    if (sums[b] != expected) {
      std::printf("block %d: got %lld, expected %lld\n", b, sums[b], expected);
      return 1;
    }
  }

  const int m = 4 * 256;
  std::vector<float> values(m), doubled(m);
  for (int i = 0; i < m; ++i) values[i] = i * 0.5f;
  float *d_values, *d_doubled;
  CHECK(cudaMalloc(&d_values, m * sizeof(float)));
  CHECK(cudaMalloc(&d_doubled, m * sizeof(float)));
  CHECK(cudaMemcpy(d_values, values.data(), m * sizeof(float), cudaMemcpyHostToDevice));
  untyped_copy<<<4, 256>>>(d_values, d_doubled);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(doubled.data(), d_doubled, m * sizeof(float), cudaMemcpyDeviceToHost));
  for (int b = 0; b < 4; ++b)
    for (int t = 0; t < 256; ++t)
      if (doubled[b * 256 + t] != 2.0f * values[b * 256 + 255 - t]) {
        std::printf("untyped_copy[%d]: %f\n", b * 256 + t, doubled[b * 256 + t]);
        return 1;
      }
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_sums));
  CHECK(cudaFree(d_values));
  CHECK(cudaFree(d_doubled));
  std::printf("memcpy_async_pipeline: PASS\n");
  return 0;
}
