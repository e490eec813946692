// `static __shared__` and `__shared__ static`, both valid CUDA: the block
// reduction of NVIDIA's "Faster Parallel Reductions on Kepler" and a block
// counter. On the host `__shared__` is itself `static thread_local`, so
// cohort-cxx must drop the user's `static` for this file to compile; each
// block must still see its own copy of both variables.
#include <cstdio>
#include <vector>

__inline__ __device__ int warp_reduce_sum(int val) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2) val += __shfl_down_sync(0xffffffff, val, offset);
  return val;
}

__inline__ __device__ int block_reduce_sum(int val) {
  static __shared__ int shared[32];
  int lane = threadIdx.x % warpSize;
  int wid = threadIdx.x / warpSize;
  val = warp_reduce_sum(val);
  if (lane == 0) shared[wid] = val;
  __syncthreads();
  val = (threadIdx.x < blockDim.x / warpSize) ? shared[lane] : 0;
  if (wid == 0) val = warp_reduce_sum(val);
  return val;
}

__global__ void block_sums(const int* in, int* sums, int* counts) {
  __shared__ static int arrived;
  if (threadIdx.x == 0) arrived = 0;
  __syncthreads();
  atomicAdd(&arrived, 1);
  int sum = block_reduce_sum(in[blockIdx.x * blockDim.x + threadIdx.x]);
  if (threadIdx.x == 0) {
    sums[blockIdx.x] = sum;
    counts[blockIdx.x] = arrived;
  }
}

int main() {
  const int blocks = 4, threads = 256, n = blocks * threads;
  std::vector<int> in(n);
  for (int i = 0; i < n; ++i) in[i] = i % 7;
  int *d_in, *d_sums, *d_counts;
  cudaMalloc(&d_in, n * sizeof(int));
  cudaMalloc(&d_sums, blocks * sizeof(int));
  cudaMalloc(&d_counts, blocks * sizeof(int));
  cudaMemcpy(d_in, in.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  block_sums<<<blocks, threads>>>(d_in, d_sums, d_counts);
  if (cudaDeviceSynchronize() != cudaSuccess) {
    std::printf("FAIL: %s\n", cudaGetErrorString(cudaGetLastError()));
    return 1;
  }
  std::vector<int> sums(blocks), counts(blocks);
  cudaMemcpy(sums.data(), d_sums, blocks * sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(counts.data(), d_counts, blocks * sizeof(int), cudaMemcpyDeviceToHost);
  int failures = 0;
  for (int b = 0; b < blocks; ++b) {
    int expected = 0;
    for (int i = b * threads; i < (b + 1) * threads; ++i) expected += in[i];
    if (sums[b] != expected || counts[b] != threads) {
      std::printf("FAIL: block %d: sum %d (expected %d), %d threads arrived (expected %d)\n", b, sums[b], expected,
                  counts[b], threads);
      ++failures;
    }
  }
  cudaFree(d_in);
  cudaFree(d_sums);
  cudaFree(d_counts);
  if (failures == 0) std::printf("PASS\n");
  return failures == 0 ? 0 : 1;
}
