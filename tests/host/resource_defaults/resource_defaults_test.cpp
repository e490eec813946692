// The host backend's resource defaults at a machine's size: ctest runs this
// binary with COHORT_WORKERS and COHORT_SM_COUNT from 1 to 256 (as a machine
// with that many hardware threads gets by default), both set from
// COHORT_TEST_HARDWARE_THREADS. The largest cooperative
// grid and blocks of 1024 threads with barriers run with no error, and the
// fiber stacks go back after each launch.
#include <gmock/gmock.h>

#include <cohort/cohort.hpp>
#include <cstdlib>
#include <fstream>
#include <string>

#include "host_support.hpp"
#include "test_support.hpp"

namespace cg = cohort;
using ::testing::HasSubstr;

namespace {

// One variable for both: ctest's ENVIRONMENT property takes a list, which
// gtest_discover_tests splits apart. Set before main, so before the runtime
// reads them (once per process).
const bool machine_size_set = [] {
  if (const char* threads = std::getenv("COHORT_TEST_HARDWARE_THREADS")) {
    setenv("COHORT_WORKERS", threads, 1);
    setenv("COHORT_SM_COUNT", threads, 1);
  }
  return true;
}();

unsigned env_count(const char* name) {
  const char* v = std::getenv(name);
  return v ? static_cast<unsigned>(std::atoi(v)) : 1u;
}

long mappings() {
  std::ifstream maps("/proc/self/maps");
  long n = 0;
  for (std::string line; std::getline(maps, line);) ++n;
  return n;
}

// ThreadSanitizer (GCC 12's runtime) keeps at most 8128 threads alive, and
// every fiber it is told of (each parked thread's: src/host_runtime/fibers/fiber_sanitizer.hpp)
// is one of them: a launch that parks more ends the process ("Thread limit
// exceeded"), so the sizes past that are skipped under TSan.
#if defined(__SANITIZE_THREAD__)
constexpr unsigned tsan_thread_limit = 8128;
#else
constexpr unsigned tsan_thread_limit = ~0u;
#endif

void expect_stacks_returned() {
  const auto census = cohort::detail::host::stacks_in_use();
  EXPECT_LE(census.retained, 4096u);
  EXPECT_LE(census.mapped, census.retained + 16u * env_count("COHORT_WORKERS"));
  EXPECT_LT(mappings(), 30000) << "mappings left after the launch";
}

__global__ void grid_steps(unsigned long long* sums, int steps) {
  cg::grid_group grid = cg::this_grid();
  for (int s = 0; s < steps; ++s) {
    if (threadIdx.x == 0) atomicAdd(&sums[s], static_cast<unsigned long long>(grid.block_rank() + 1));
    grid.sync();
  }
}

TEST(ResourceDefaults, TheLargestCooperativeGridRuns) {
  const int blocks = cg::max_cooperative_grid(grid_steps, 256);
  ASSERT_EQ(blocks, 8 * static_cast<int>(env_count("COHORT_SM_COUNT")));
  // Every thread parks at the grid barrier, and every block has an OS thread.
  if (static_cast<unsigned>(blocks) * 257 > tsan_thread_limit)
    GTEST_SKIP() << blocks * 257 << " threads, more than TSan keeps (" << tsan_thread_limit << ")";
  constexpr int steps = 2;
  cg::device_buffer<unsigned long long> sums(std::vector<unsigned long long>(steps, 0));
  cg::launch_cooperative(grid_steps, {dim3(blocks), dim3(256)}, sums.data(), steps);
  const unsigned long long n = static_cast<unsigned long long>(blocks);
  for (const unsigned long long s : sums.to_host()) EXPECT_EQ(s, n * (n + 1) / 2);
  expect_stacks_returned();
}

__global__ void block_reverse(int* data) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const int v = data[i];
  __syncthreads();
  data[blockIdx.x * blockDim.x + (blockDim.x - 1 - threadIdx.x)] = v;
}

TEST(ResourceDefaults, BlocksOf1024ThreadsWithBarriersOnEveryWorker) {
  const unsigned blocks = env_count("COHORT_WORKERS");
  if (blocks * 1024 > tsan_thread_limit)
    GTEST_SKIP() << blocks * 1024 << " threads, more than TSan keeps (" << tsan_thread_limit << ")";
  std::vector<int> in(blocks * 1024);
  for (unsigned i = 0; i < in.size(); ++i) in[i] = static_cast<int>(i);
  cg::device_buffer<int> data(in);
  cg::launch(block_reverse, {dim3(blocks), dim3(1024)}, data.data());
  const auto out = data.to_host();
  for (unsigned i = 0; i < out.size(); ++i) ASSERT_EQ(out[i], static_cast<int>(i / 1024 * 1024 + 1023 - i % 1024)) << i;
  expect_stacks_returned();
  // Memory the program asks for afterwards is there.
  for (int i = 0; i < 100; ++i) {
    void* p = std::malloc(1 << 20);
    ASSERT_NE(p, nullptr);
    std::free(p);
  }
}

// On one worker a block spinning on a later block of a launch that is not
// cooperative waits on a block that cannot run: the watchdog names it.
constexpr int cross_block_line = __LINE__ + 3;
__global__ void waits_for_the_next_block(int* flag) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    while (atomicOr(flag, 0) == 0) {
    }
  }
  if (blockIdx.x == 1) atomicExch(flag, 1);
}

TEST(ResourceDefaults, OnOneWorkerASpinOnALaterBlockIsAnError) {
  if (env_count("COHORT_WORKERS") != 1) GTEST_SKIP() << "needs COHORT_WORKERS=1";
  const cohort_test::scoped_env watchdog("COHORT_WATCHDOG", "1");
  cg::device_buffer<int> flag(std::vector<int>{0});
  const cg::error e =
      cohort_test::launch_error([&] { cg::launch(waits_for_the_next_block, {dim3(2), dim3(1)}, flag.data()); });
  EXPECT_EQ(e.kind(), cg::errc::deadlock);
  EXPECT_THAT(e.what(), HasSubstr(cohort_test::at_line("resource_defaults_test.cpp", cross_block_line)));
  EXPECT_THAT(e.what(), HasSubstr("need not run at the same time"));
}

}  // namespace
