// A CUDA program outside the cohort tree, built for the host backend by the
// installed package: once through cohort_add_host_cuda_executable, once on
// the command line through the installed cohort-cxx.
#include <cooperative_groups.h>
#include <cstdio>

namespace cg = cooperative_groups;

__global__ void ranks(int* out) {
  extern __shared__ int slot[];
  cg::thread_block block = cg::this_thread_block();
  slot[block.thread_rank()] = static_cast<int>(block.thread_rank());
  block.sync();
  out[blockIdx.x * blockDim.x + threadIdx.x] = slot[blockDim.x - 1 - threadIdx.x];
}

int main() {
  int* out;
  if (cudaMalloc(&out, 4 * 64 * sizeof(int)) != cudaSuccess) return 1;
  ranks<<<4, 64, 64 * sizeof(int)>>>(out);
  if (cudaGetLastError() != cudaSuccess) return 1;
  int host[4 * 64];
  cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 4 * 64; ++i)
    if (host[i] != 63 - i % 64) {
      std::printf("FAIL at %d\n", i);
      return 1;
    }
  std::printf("PASS: CUDA program on the host\n");
  return 0;
}
