// Fiber stacks under pressure: a frame larger than the guard zone still
// faults in it (stack-clash probing), stacks go back after a launch, and the
// mapping count stays bounded however many threads park at once.
#include <gmock/gmock.h>

#include <alloca.h>
#include <sys/resource.h>

#include <algorithm>
#include <cohort/cohort.hpp>
#include <fstream>
#include <string>

#include "host_support.hpp"
#include "test_support.hpp"

namespace cg = cohort;
using ::testing::AllOf;
using ::testing::HasSubstr;

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
    EXPECT_THAT(e.what(),
                AllOf(HasSubstr("fiber stack overflow"), HasSubstr("huge_frame"), HasSubstr("COHORT_STACK_SIZE")));
  }
}

__global__ void parks_every_thread(int* out) {
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = static_cast<int>(threadIdx.x);
}

TEST(FiberStacks, ALaunchGivesItsStacksBackAndKeepsFewMappings) {
  cg::device_buffer<int> out(64 * 1024);
  // A small launch first starts the worker threads (each maps its stack, guard, signal stack and a
  // malloc arena: ~9 mappings, so thousands under COHORT_WORKERS=256), which the count below leaves out.
  cg::launch(parks_every_thread, {dim3(64), dim3(32)}, out.data());
  const long before = mappings();
  cg::launch(parks_every_thread, {dim3(64), dim3(1024)}, out.data());
  const auto after = cohort::detail::host::stacks_in_use();
  EXPECT_LE(after.mapped, 4096u + 16u * 64) << "stacks kept mapped after the launch";
  // Two mappings per guarded stack at most, slack, and per worker that ran a block of 1024 threads the
  // allocations large enough for malloc to map (its records, a grown arena).
  // (TSan maps memory of its own for every fiber it is told of.)
#if !defined(__SANITIZE_THREAD__)
  const long workers = std::min(64u, cohort::detail::host::worker_threads());
  EXPECT_LT(mappings() - before, static_cast<long>(2 * after.mapped + 64 + 3 * workers));
#endif
  const auto o = out.to_host();
  for (unsigned i = 0; i < o.size(); ++i) ASSERT_EQ(o[i], static_cast<int>(i % 1024)) << i;
}

#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)  // they reserve terabytes of address space
// A process out of address space: the launch fails with out_of_memory naming
// why, instead of a std::bad_alloc thrown on a fiber (std::terminate).
// Launches `blocks` blocks of 1024 threads that all park, with the address
// space nearly used up; exits 0 on an out_of_memory error.
[[noreturn]] void launch_without_address_space(unsigned blocks, bool cooperative) {
  cg::device_buffer<int> out(blocks * 1024);
  std::ifstream status("/proc/self/status");
  long vm_kib = 0;
  for (std::string line; std::getline(status, line);)
    if (line.rfind("VmSize:", 0) == 0) vm_kib = std::stol(line.substr(7));
  const rlimit limit{static_cast<rlim_t>(vm_kib + 8 * 1024) * 1024, RLIM_INFINITY};
  setrlimit(RLIMIT_AS, &limit);
  try {
    if (cooperative)
      cg::launch_cooperative(parks_every_thread, {dim3(blocks), dim3(1024)}, out.data());
    else
      cg::launch(parks_every_thread, {dim3(blocks), dim3(1024)}, out.data());
  } catch (const cg::error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    std::exit(e.kind() == cg::errc::out_of_memory ? 0 : 1);
  }
  std::exit(2);
}

TEST(FiberStacksDeathTest, NoStackToMapIsAnErrorOfTheLaunch) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  // One block: it runs on this thread, so no OS thread need be started.
  EXPECT_EXIT(launch_without_address_space(1, false), ::testing::ExitedWithCode(0), "cannot map 16 fiber stacks");
  // A cooperative grid gives every block an OS thread: the first that cannot start is named.
  EXPECT_EXIT(launch_without_address_space(2, true), ::testing::ExitedWithCode(0), "cannot start OS thread");
}
#endif

}  // namespace
