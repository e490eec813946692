// Fiber stacks under pressure: a frame larger than the guard zone still
// faults in it (stack-clash probing), stacks go back after a launch, and the
// mapping count stays bounded however many threads park at once.
#include <gmock/gmock.h>

#include <alloca.h>

#include <cohort/cohort.hpp>
#include <fstream>
#include <string>

#include "host_support.hpp"
#include "test_support.hpp"

namespace cg = cohort;
using ::testing::AllOf;
using ::testing::HasSubstr;

namespace cohort::host::detail {
struct stack_census {
  std::size_t mapped, guarded, retained;
};
stack_census stacks_in_use();
}  // namespace cohort::host::detail

namespace {

using cohort_test::launch_error;

long mappings() {
  std::ifstream maps("/proc/self/maps");
  long n = 0;
  for (std::string line; std::getline(maps, line);) ++n;
  return n;
}

// Writes only the low end of a frame larger than the stack, as a kernel with a
// large local array that it fills from the end might: without probing, the
// write lands below the guard zone, in whatever lies there.
__global__ void huge_frame(std::size_t bytes, int* out) {
  __syncthreads();  // every thread on a fiber of its own, stacks side by side
  volatile char* frame = static_cast<char*>(alloca(bytes));
  frame[0] = 1;
  out[threadIdx.x] = frame[0];
}

TEST(FiberStacks, AFrameLargerThanTheGuardZoneIsAnOverflow) {
  cg::device_buffer<int> out(64);
  for (const std::size_t kib : {131, 200, 300}) {
    const cg::error e = launch_error([&] { cg::launch(huge_frame, {dim3(1), dim3(64)}, kib * 1024, out.data()); });
    EXPECT_EQ(e.kind(), cg::errc::stack_overflow) << kib << " KiB";
    EXPECT_THAT(e.what(), AllOf(HasSubstr("fiber stack overflow"), HasSubstr("huge_frame"), HasSubstr("COHORT_STACK_SIZE")));
  }
}

__global__ void parks_every_thread(int* out) {
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = static_cast<int>(threadIdx.x);
}

TEST(FiberStacks, ALaunchGivesItsStacksBackAndKeepsFewMappings) {
  const long before = mappings();
  cg::device_buffer<int> out(64 * 1024);
  cg::launch(parks_every_thread, {dim3(64), dim3(1024)}, out.data());
  const auto after = cohort::host::detail::stacks_in_use();
  EXPECT_LE(after.mapped, 4096u + 16u * 64) << "stacks kept mapped after the launch";
  // Two mappings per guarded stack at most, plus the device buffer and slack.
  EXPECT_LT(mappings() - before, static_cast<long>(2 * after.mapped + 64));
  const auto o = out.to_host();
  for (unsigned i = 0; i < o.size(); ++i) ASSERT_EQ(o[i], static_cast<int>(i % 1024)) << i;
}

}  // namespace
