// Two kernels, one for each of the host backend's engines: a shared-memory
// tree reduction (barriers only: the loops pass lowers it where the program is
// compiled by its clang with the plugin) and a warp-shuffle reduction over
// __activemask()'s lanes (kept on fibers by the pass: which lanes are
// converged is not defined by thread loops), and the tree reduction again as a
// kernel template launched with its template argument deduced, and into a stream
// behind work of its own. Every result is checked; which engine ran each is what engine_choice_test.cmake and the
// cuda_program test assert.
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                                       \
  do {                                                                                    \
    cudaError_t err_ = (call);                                                            \
    if (err_ != cudaSuccess) {                                                            \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_)); \
      std::exit(1);                                                                       \
    }                                                                                     \
  } while (0)

constexpr int block_size = 128;

__global__ void tree_sum(const int* in, int* block_sums) {
  __shared__ int partial[block_size];
  partial[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s /= 2) {
    if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) block_sums[blockIdx.x] = partial[0];
}

template <class T>
__global__ void tree_sum_of(const T* in, T* block_sums) {
  __shared__ T partial[block_size];
  partial[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s /= 2) {
    if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) block_sums[blockIdx.x] = partial[0];
}

__global__ void shuffle_sum(const int* in, int* warp_sums) {
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(__activemask(), v, offset);
  if (threadIdx.x % 32 == 0) warp_sums[(blockIdx.x * blockDim.x + threadIdx.x) / 32] = v;
}

int main() {
  constexpr int blocks = 8, n = blocks * block_size;
  std::vector<int> host(n);
  for (int i = 0; i < n; ++i) host[i] = (i * 7) % 13 - 6;
  int *in, *block_sums, *warp_sums;
  CHECK(cudaMalloc(&in, n * sizeof(int)));
  CHECK(cudaMalloc(&block_sums, blocks * sizeof(int)));
  CHECK(cudaMalloc(&warp_sums, n / 32 * sizeof(int)));
  CHECK(cudaMemcpy(in, host.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  tree_sum<<<blocks, block_size>>>(in, block_sums);
  CHECK(cudaGetLastError());
  shuffle_sum<<<blocks, block_size>>>(in, warp_sums);
  CHECK(cudaGetLastError());
  std::vector<int> by_block(blocks), by_warp(n / 32), by_template(blocks);
  CHECK(cudaMemcpy(by_block.data(), block_sums, blocks * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemset(block_sums, 0, blocks * sizeof(int)));
  tree_sum_of<<<blocks, block_size>>>(in, block_sums);  // T deduced: int
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(by_template.data(), block_sums, blocks * sizeof(int), cudaMemcpyDeviceToHost));
  if (by_template != by_block) {
    std::printf("FAIL: tree_sum_of<int> differs from tree_sum\n");
    return 1;
  }
  // tree_sum again, launched into a stream behind work of its own: a launch that waits for its stream's
  // turn runs on the engine an immediate launch runs on.
  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));
  CHECK(cudaMemsetAsync(block_sums, 0, blocks * sizeof(int), stream));
  tree_sum<<<blocks, block_size, 0, stream>>>(in, block_sums);
  CHECK(cudaGetLastError());
  std::vector<int> by_stream(blocks);
  CHECK(cudaMemcpyAsync(by_stream.data(), block_sums, blocks * sizeof(int), cudaMemcpyDeviceToHost, stream));
  CHECK(cudaStreamSynchronize(stream));
  CHECK(cudaStreamDestroy(stream));
  if (by_stream != by_block) {
    std::printf("FAIL: tree_sum in a stream differs from tree_sum\n");
    return 1;
  }
  CHECK(cudaMemcpy(by_warp.data(), warp_sums, n / 32 * sizeof(int), cudaMemcpyDeviceToHost));
  for (int b = 0; b < blocks; ++b) {
    int expected = 0;
    for (int i = 0; i < block_size; ++i) expected += host[b * block_size + i];
    if (by_block[b] != expected) {
      std::printf("FAIL: tree_sum of block %d is %d, expected %d\n", b, by_block[b], expected);
      return 1;
    }
  }
  for (int w = 0; w < n / 32; ++w) {
    int expected = 0;
    for (int i = 0; i < 32; ++i) expected += host[w * 32 + i];
    if (by_warp[w] != expected) {
      std::printf("FAIL: shuffle_sum of warp %d is %d, expected %d\n", w, by_warp[w], expected);
      return 1;
    }
  }
  CHECK(cudaFree(in));
  CHECK(cudaFree(block_sums));
  CHECK(cudaFree(warp_sums));
  std::printf("PASS\n");
  return 0;
}
