// A 256-bin byte histogram: each block counts into a private copy in shared
// memory (atomicAdd on shared, reading four bytes at a time through uchar4),
// then merges it into the global histogram with one atomicAdd per bin.
#include <cooperative_groups.h>
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

__global__ void histogram(const uchar4* data, int quads, unsigned* bins) {
  __shared__ unsigned local[256];
  cg::thread_block block = cg::this_thread_block();
  for (int b = threadIdx.x; b < 256; b += blockDim.x) local[b] = 0;
  block.sync();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < quads; i += blockDim.x * gridDim.x) {
    uchar4 q = __ldg(&data[i]);
    atomicAdd(&local[q.x], 1u);
    atomicAdd(&local[q.y], 1u);
    atomicAdd(&local[q.z], 1u);
    atomicAdd_block(&local[q.w], 1u);
  }
  block.sync();
  for (int b = threadIdx.x; b < 256; b += blockDim.x)
    if (local[b]) atomicAdd(&bins[b], local[b]);
}

int main() {
  const int bytes = 1 << 20;
  const int quads = bytes / 4;
  std::vector<unsigned char> host(bytes);
  unsigned state = 12345u;
  std::vector<unsigned> expected(256, 0);
  for (int i = 0; i < bytes; ++i) {
    state = state * 1664525u + 1013904223u;
    host[i] = static_cast<unsigned char>((state >> 24) % 200);
    ++expected[host[i]];
  }
  uchar4* d_data;
  unsigned* d_bins;
  CHECK(cudaMalloc(&d_data, bytes));
  CHECK(cudaMalloc(&d_bins, 256 * sizeof(unsigned)));
  CHECK(cudaMemcpy(d_data, host.data(), bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_bins, 0, 256 * sizeof(unsigned)));
  int sms = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  histogram<<<4 * sms, 192>>>(d_data, quads, d_bins);
  CHECK(cudaGetLastError());
  std::vector<unsigned> got(256);
  CHECK(cudaMemcpy(got.data(), d_bins, 256 * sizeof(unsigned), cudaMemcpyDeviceToHost));
  for (int b = 0; b < 256; ++b) {
    if (got[b] != expected[b]) {
      std::printf("bin %d: got %u, expected %u\n", b, got[b], expected[b]);
      return 1;
    }
  }
  CHECK(cudaFree(d_data));
  CHECK(cudaFree(d_bins));
  std::printf("histogram_atomics: PASS\n");
  return 0;
}
