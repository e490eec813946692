// A runner runs threads in a streak while nothing waits, storing only the
// current thread; a call into the runtime settles the block's counts from the
// running thread's rank. These kernels call in for the first time part-way
// through a block, after threads that never did, and check that barriers,
// collectives and diagnostics see the counts they would have seen.
#include <gmock/gmock.h>

#include <cohort/cohort.hpp>
#include <random>
#include <vector>

#include "host_support.hpp"
#include "test_support.hpp"

namespace cg = cohort;
using ::testing::AllOf;
using ::testing::HasSubstr;

namespace {

std::string at_line(int line) { return cohort_test::at_line("thread_streaks.cpp", line); }

// Threads below `first_waiter` exit without calling in; the rest meet at a
// barrier, after which each reads what its neighbour wrote before it.
__global__ void late_barrier(const int* in, int* out, unsigned first_waiter) {
  __shared__ int staged[256];
  const unsigned t = threadIdx.x;
  if (t < first_waiter) {
    out[blockIdx.x * blockDim.x + t] = -1;
    return;
  }
  staged[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  const unsigned neighbour = t + 1 < blockDim.x ? t + 1 : first_waiter;
  out[blockIdx.x * blockDim.x + t] = staged[neighbour];
}

TEST(ThreadStreaks, ABarrierReachedOnlyByLaterThreadsCompletes) {
  std::mt19937 rng(19);
  const unsigned blocks = 5, threads = 256;
  std::vector<int> in(blocks * threads);
  for (int& x : in) x = static_cast<int>(rng() % 1000);
  cg::device_buffer<int> d_in(in);
  for (const unsigned first_waiter : {0u, 1u, 37u, 255u}) {
    cg::device_buffer<int> d_out(std::vector<int>(in.size(), 12345));  // poisoned
    cg::launch(late_barrier, {dim3(blocks), dim3(threads)}, d_in.data(), d_out.data(), first_waiter);
    const std::vector<int> out = d_out.to_host();
    for (unsigned b = 0; b < blocks; ++b)
      for (unsigned t = 0; t < threads; ++t) {
        const unsigned neighbour = t + 1 < threads ? t + 1 : first_waiter;
        const int expected = t < first_waiter ? -1 : in[b * threads + neighbour];
        ASSERT_EQ(out[b * threads + t], expected)
            << "block " << b << ", thread " << t << ", first waiter " << first_waiter;
      }
  }
}

// A warp's collective called by the second warp only, after the first warp's
// threads ran and exited without calling in.
__global__ void second_warp_reduces(int* out) {
  const cg::thread_block block = cg::this_thread_block();
  if (block.thread_rank() < 32) return;
  const auto warp = cg::tiled_partition<32>(block);
  const int sum = cg::reduce(warp, static_cast<int>(block.thread_rank()), cg::plus<int>());
  if (warp.thread_rank() == 0) out[0] = sum;
}

TEST(ThreadStreaks, AWarpCollectiveAfterExitedThreads) {
  cg::device_buffer<int> out(std::vector<int>{-1});
  cg::launch(second_warp_reduces, {dim3(1), dim3(64)}, out.data());
  int expected = 0;
  for (int r = 32; r < 64; ++r) expected += r;
  EXPECT_EQ(out.to_host()[0], expected);
}

constexpr int even_line = __LINE__ + 5;
constexpr int odd_line = __LINE__ + 6;
__global__ void mismatched_after_exits() {
  if (threadIdx.x < 10) return;
  if (threadIdx.x % 2 == 0)
    __syncthreads();
  else
    __syncthreads();
}

TEST(ThreadStreaks, AMismatchAfterExitsNamesTheRightThreads) {
  const cg::error e = cohort_test::launch_error([] { cg::launch(mismatched_after_exits, {dim3(1), dim3(32)}); });
  EXPECT_EQ(e.kind(), cg::errc::barrier_mismatch);
  EXPECT_THAT(e.what(), AllOf(HasSubstr("thread (10,0,0) at "), HasSubstr(at_line(even_line)),
                              HasSubstr("thread (11,0,0) at "), HasSubstr(at_line(odd_line))));
}

__global__ void exits_then_splits() {
  if (threadIdx.x < 10) return;
  if (threadIdx.x < 20)
    __syncthreads();
  else
    cg::this_grid().sync();
}

TEST(ThreadStreaks, ADeadlockAfterExitsCountsTheLiveThreads) {
  const cg::error e = cohort_test::launch_error([] { cg::launch_cooperative(exits_then_splits, {dim3(2), dim3(40)}); });
  EXPECT_EQ(e.kind(), cg::errc::deadlock);
  EXPECT_THAT(e.what(), AllOf(HasSubstr("none of its 30 live threads can make progress"),
                              HasSubstr("10 threads wait at a block barrier"), HasSubstr("first thread (10,0,0)"),
                              HasSubstr("20 threads wait at a grid barrier"), HasSubstr("first thread (20,0,0)")));
}

}  // namespace
