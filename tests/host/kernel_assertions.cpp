// A failed assert() in kernel code fails its launch, as on a GPU (where the
// launch returns cudaErrorAssert), with a message naming the assertion, the
// kernel, the block and the thread; the program goes on. assert() outside a
// kernel keeps glibc's behaviour.
#include <gmock/gmock.h>

#include <cohort/cohort.hpp>
#include <functional>
#include <string>
#include <vector>

// After every other header, so that assert() is live in this file whatever
// the build type (Release defines NDEBUG).
#undef NDEBUG
#include <cassert>

namespace cg = cohort;
using ::testing::ContainsRegex;
using ::testing::HasSubstr;

namespace {

// Every thread writes its global index, the failing one after checking it.
constexpr int index_check_line = __LINE__ + 3;
__global__ void checks_its_index(int* out, int bad) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  assert(i != bad);
  out[i] = i;
}

// The failing thread is past a barrier and its block waits at the next one.
__global__ void checks_between_barriers(int* out, int bad) {
  __syncthreads();
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  assert(i != bad);
  __syncthreads();
  out[i] = i;
}

// The other blocks wait at the grid barrier for the failing thread's.
__global__ void checks_before_grid_sync(int* out, int bad) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  assert(i != bad);
  cg::this_grid().sync();
  out[i] = i;
}

std::string failure_of(const std::function<void()>& launch) {
  try {
    launch();
  } catch (const cg::error& e) {
    EXPECT_EQ(e.kind(), cg::errc::assertion_failed) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "the launch did not fail";
  return {};
}

// A later launch of the same kernel runs whole: the failure left the runtime as it was.
void expect_runs_whole(void (*kernel)(int*, int), unsigned blocks, unsigned threads, bool cooperative) {
  cg::device_buffer<int> out(blocks * threads);
  out.fill(-1);
  const cg::launch_config config{dim3(blocks), dim3(threads)};
  if (cooperative)
    cg::launch_cooperative(kernel, config, out.data(), -1);
  else
    cg::launch(kernel, config, out.data(), -1);
  const std::vector<int> got = out.to_host();
  for (int i = 0; i < static_cast<int>(got.size()); ++i) ASSERT_EQ(got[i], i);
}

TEST(KernelAssertions, AFailedAssertionInAKernelWithoutBarriersFailsTheLaunchNamingItsThread) {
  cg::device_buffer<int> out(4 * 64);
  const std::string what =
      failure_of([&] { cg::launch(checks_its_index, {dim3(4), dim3(64)}, out.data(), 2 * 64 + 5); });
  EXPECT_THAT(what, HasSubstr("assertion `i != bad` failed in kernel `"));
  EXPECT_THAT(what, HasSubstr("checks_its_index"));
  EXPECT_THAT(what, HasSubstr("block (2,0,0), thread (5,0,0), at "));
  EXPECT_THAT(what, HasSubstr("kernel_assertions.cpp:" + std::to_string(index_check_line) + " "));
  // The function as the compiler spells it for assert(): g++ and clang differ.
  EXPECT_THAT(what, ContainsRegex("\\(in `void (\\{anonymous\\}|\\(anonymous namespace\\))::checks_its_index\\(int "
                                  "?\\*, int\\)`\\)"));
  expect_runs_whole(checks_its_index, 4, 64, false);
}

TEST(KernelAssertions, AThreadFailingWhileItsBlockWaitsAtABarrierFailsTheLaunch) {
  cg::device_buffer<int> out(3 * 96);
  const std::string what =
      failure_of([&] { cg::launch(checks_between_barriers, {dim3(3), dim3(96)}, out.data(), 96 + 40); });
  EXPECT_THAT(what, HasSubstr("block (1,0,0), thread (40,0,0)"));
  expect_runs_whole(checks_between_barriers, 3, 96, false);
}

TEST(KernelAssertions, ABlockFailingWhileTheOthersWaitAtTheGridBarrierFailsTheLaunch) {
  cg::device_buffer<int> out(4 * 32);
  const std::string what =
      failure_of([&] { cg::launch_cooperative(checks_before_grid_sync, {dim3(4), dim3(32)}, out.data(), 3 * 32); });
  EXPECT_THAT(what, HasSubstr("block (3,0,0), thread (0,0,0)"));
  expect_runs_whole(checks_before_grid_sync, 4, 32, true);
}

TEST(KernelAssertionsDeathTest, AFailedAssertionInHostCodeAbortsAsTheCLibraryDoes) {
  const volatile int zero = 0;
  EXPECT_DEATH(assert(zero == 1), "kernel_assertions.cpp:[0-9]+: .*Assertion `zero == 1' failed");
}

}  // namespace
