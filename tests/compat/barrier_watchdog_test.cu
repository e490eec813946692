// A cuda::barrier wait is a spin the watchdog times (COHORT_WATCHDOG): it must time only a block
// that stands still. Here every thread of a block of 1024 does 2 ms of work and a warp reduction
// before it arrives, 2 s in all against a 1 s watchdog, while the first threads already wait:
// the block's other threads are still starting and being released, so it is no deadlock
// (NVIDIA's simpleAWBarrier under race checking was reported as one); a barrier one thread never
// reaches still is.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include <chrono>
#include <cuda/barrier>
#include <string>

#include "host_support.hpp"
#include "runtime_test_support.hpp"

namespace cg = cooperative_groups;

namespace {

__global__ void slow_arrivals(int* out, int skipped) {
  __shared__ cuda::barrier<cuda::thread_scope_block> barrier;
  if (threadIdx.x == 0) init(&barrier, blockDim.x);
  __syncthreads();
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(2);
  while (std::chrono::steady_clock::now() < until) {
  }
  const auto tile = cg::tiled_partition<32>(cg::this_thread_block());
  const int sum = cg::reduce(tile, 1, cg::plus<int>());
  if (static_cast<int>(threadIdx.x) == skipped) return;  // never arrives
  barrier.arrive_and_wait();
  out[threadIdx.x] = sum;
}

class BarrierWatchdog : public FreshDevice {
 protected:
  const cohort_test::scoped_env watchdog{"COHORT_WATCHDOG", "1"};
};

TEST_F(BarrierWatchdog, AWaitWhileTheBlockIsStillOnItsWayIsNoDeadlock) {
  int* out;
  ASSERT_EQ(cudaMalloc(&out, 1024 * sizeof(int)), cudaSuccess);
  slow_arrivals<<<1, 1024>>>(out, -1);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess) << detail_of(cudaErrorLaunchFailure);
  int got[1024];
  ASSERT_EQ(cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost), cudaSuccess);
  for (int i = 0; i < 1024; ++i) ASSERT_EQ(got[i], 32) << i;
}

TEST_F(BarrierWatchdog, AThreadThatNeverArrivesIsStillADeadlock) {
  int* out;
  ASSERT_EQ(cudaMalloc(&out, 1024 * sizeof(int)), cudaSuccess);
  slow_arrivals<<<1, 64>>>(out, 40);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
  EXPECT_NE(detail_of(cudaErrorLaunchFailure).find("spin-wait without progress"), std::string::npos)
      << detail_of(cudaErrorLaunchFailure);
}

}  // namespace
