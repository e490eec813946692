// A whole-array sum in one cooperative kernel: every block reduces a strided
// share, grid.sync(), then block 0 adds the partial sums. The grid is sized
// from occupancy and launched with cudaLaunchCooperativeKernel through a void*
// and void** arguments, as the CUDA samples do; one block too many must be
// refused with cudaErrorCooperativeLaunchTooLarge, a non-sticky error.
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

__global__ void grid_sum(const float* in, float* partial, float* result, int n) {
  cg::thread_block block = cg::this_thread_block();
  cg::grid_group grid = cg::this_grid();
  auto warp = cg::tiled_partition<32>(block);
  __shared__ float warp_sums[32];
  float v = 0.0f;
  for (unsigned long long i = grid.thread_rank(); i < (unsigned long long)n; i += grid.size()) v += in[i];
  v = cg::reduce(warp, v, cg::plus<float>());
  if (warp.thread_rank() == 0) warp_sums[warp.meta_group_rank()] = v;
  block.sync();
  if (block.thread_rank() == 0) {
    float s = 0.0f;
    for (unsigned w = 0; w < (block.size() + 31) / 32; ++w) s += warp_sums[w];
    partial[grid.block_rank()] = s;
  }
  grid.sync();
  if (grid.thread_rank() == 0) {
    float s = 0.0f;
    for (unsigned b = 0; b < grid.num_blocks(); ++b) s += partial[b];
    *result = s;
  }
}

int main() {
  int device = 0, cooperative = 0, sms = 0;
  CHECK(cudaGetDevice(&device));
  CHECK(cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, device));
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  if (!cooperative) {
    std::printf("cooperative launch not supported\n");
    return 1;
  }
  const int threads = 256;
  int per_sm = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, grid_sum, threads, 0));
  const int blocks = per_sm * sms;
  if (blocks < 1) {
    std::printf("no block fits\n");
    return 1;
  }

  int n = 100003;
  std::vector<float> host(n);
  double expected = 0;
  for (int i = 0; i < n; ++i) {
    host[i] = static_cast<float>((i * 7919) % 17) * 0.25f;
    expected += host[i];
  }
  float *d_in, *d_partial, *d_result;
  CHECK(cudaMalloc(&d_in, n * sizeof(float)));
  CHECK(cudaMalloc(&d_partial, (blocks + 1) * sizeof(float)));
  CHECK(cudaMalloc(&d_result, sizeof(float)));
  CHECK(cudaMemcpy(d_in, host.data(), n * sizeof(float), cudaMemcpyHostToDevice));

  void* args[] = {&d_in, &d_partial, &d_result, &n};
  CHECK(cudaLaunchCooperativeKernel((void*)grid_sum, dim3(blocks), dim3(threads), args, 0, 0));
  CHECK(cudaDeviceSynchronize());
  float got = 0;
  CHECK(cudaMemcpy(&got, d_result, sizeof got, cudaMemcpyDeviceToHost));
  if (std::abs(got - expected) > 1e-4 * expected) {
    std::printf("grid_sum: got %f, expected %f\n", got, expected);
    return 1;
  }

  cudaError_t too_large = cudaLaunchCooperativeKernel((void*)grid_sum, dim3(blocks + 1), dim3(threads), args, 0, 0);
  if (too_large != cudaErrorCooperativeLaunchTooLarge) {
    std::printf("a grid of %d blocks: expected cudaErrorCooperativeLaunchTooLarge, got %s\n", blocks + 1,
                cudaGetErrorName(too_large));
    return 1;
  }
  if (cudaGetLastError() != cudaErrorCooperativeLaunchTooLarge || cudaGetLastError() != cudaSuccess) {
    std::printf("the too-large launch should be the last error, once\n");
    return 1;
  }
  CHECK(cudaMemcpy(&got, d_result, sizeof got, cudaMemcpyDeviceToHost));  // not sticky: the runtime still works
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_partial));
  CHECK(cudaFree(d_result));
  std::printf("cooperative_reduce: PASS (%d blocks, sum %.2f)\n", blocks, got);
  return 0;
}
