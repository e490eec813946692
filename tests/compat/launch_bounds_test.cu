// __launch_bounds__ as an H200 keeps it (docs/measurements/2026-11-30-gpu-scan-racecheck.md):
// cudaFuncGetAttributes reports the bound, the occupancy search stays within it, and a
// launch of a larger block fails with cudaErrorInvalidValue, not sticky.
#include <cooperative_groups.h>

#include <string>

#include "runtime_test_support.hpp"

namespace {

constexpr int bound = 128;

__global__ void __launch_bounds__(bound) bounded(int* out) { out[threadIdx.x] = static_cast<int>(threadIdx.x) + 1; }
__global__ void __launch_bounds__(256, 4) bounded_with_min_blocks(int* out) { out[threadIdx.x] = 1; }
__global__ void __launch_bounds__(bound) bounded_cooperative(int* out) {
  cooperative_groups::this_grid().sync();
  out[threadIdx.x] = 1;
}
__global__ void unbounded(int* out) { out[threadIdx.x] = 1; }

class LaunchBounds : public FreshDevice {
 protected:
  int* out = nullptr;
  void SetUp() override { ASSERT_EQ(cudaMalloc(&out, 1024 * sizeof(int)), cudaSuccess); }
  void TearDown() override {
    cudaFree(out);
    FreshDevice::TearDown();
  }
  std::string refusal(unsigned threads, const void* kernel, int limit) const {
    return "a kernel launch: a block of " + std::to_string(threads) + " threads for the kernel at " +
           address_text(kernel) + ", declared __launch_bounds__(" + std::to_string(limit) +
           "): a GPU refuses more than " + std::to_string(limit) +
           " threads a block for it; launch smaller blocks or raise the bound";
  }
};

TEST_F(LaunchBounds, AttributesReportTheBound) {
  cudaFuncAttributes a;
  ASSERT_EQ(cudaFuncGetAttributes(&a, bounded), cudaSuccess);
  EXPECT_EQ(a.maxThreadsPerBlock, bound);
  ASSERT_EQ(cudaFuncGetAttributes(&a, bounded_with_min_blocks), cudaSuccess);
  EXPECT_EQ(a.maxThreadsPerBlock, 256);
  ASSERT_EQ(cudaFuncGetAttributes(&a, unbounded), cudaSuccess);
  EXPECT_EQ(a.maxThreadsPerBlock, 1024);
  int min_grid = 0, block = 0;
  ASSERT_EQ(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, bounded), cudaSuccess);
  EXPECT_GT(block, 0);
  EXPECT_LE(block, bound);
}

TEST_F(LaunchBounds, ABlockWithinTheBoundRuns) {
  bounded<<<1, bound>>>(out);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  int got[bound];
  ASSERT_EQ(cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost), cudaSuccess);
  for (int i = 0; i < bound; ++i) ASSERT_EQ(got[i], i + 1) << i;
}

TEST_F(LaunchBounds, ALargerBlockIsRefusedAtTheLaunchAndTheNextLaunchRuns) {
  bounded<<<1, bound + 1>>>(out);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidValue);
  EXPECT_EQ(detail_of(cudaErrorInvalidValue), refusal(bound + 1, reinterpret_cast<const void*>(bounded), bound));
  bounded<<<dim3(1), dim3(16, 16)>>>(out);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidValue);
  bounded_with_min_blocks<<<1, 512>>>(out);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidValue);
  EXPECT_EQ(detail_of(cudaErrorInvalidValue),
            refusal(512, reinterpret_cast<const void*>(bounded_with_min_blocks), 256));
  bounded<<<1, 64>>>(out);  // not sticky
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
}

TEST_F(LaunchBounds, LaunchesByAddressAndCooperativeOnesAreRefusedToo) {
  void* args[] = {&out};
  EXPECT_EQ(cudaLaunchKernel(reinterpret_cast<const void*>(bounded), dim3(1), dim3(200), args, 0, nullptr),
            cudaErrorInvalidValue);
  EXPECT_EQ(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(bounded_cooperative), dim3(1), dim3(256), args, 0,
                                        nullptr),
            cudaErrorInvalidValue);
  EXPECT_EQ(detail_of(cudaErrorInvalidValue), refusal(256, reinterpret_cast<const void*>(bounded_cooperative), bound));
  EXPECT_EQ(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(bounded_cooperative), dim3(2), dim3(bound), args,
                                        0, nullptr),
            cudaSuccess);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
}

}  // namespace
