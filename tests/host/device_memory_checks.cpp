// Out-of-bounds device memory and kernel-side calls from host code: each is
// an error that says what happened and where, never a silent corruption, a
// glibc abort or a bare SIGSEGV.
#include <gmock/gmock.h>

#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <cohort/cohort.hpp>

#include "host_support.hpp"
#include "test_support.hpp"

namespace cg = cohort;
using ::testing::AllOf;
using ::testing::HasSubstr;

namespace {

using cohort_test::launch_error;
using cohort_test::scoped_env;

// One thread of the grid writes: in a grid of several blocks the write is
// still no race between blocks.
__global__ void write_at(int* data, long index) {
  if (blockIdx.x == 0 && threadIdx.x == 5) data[index] = 42;
}

// By default each allocation has redzones, checked when it is freed; the
// damage is raised by the next launch or memory call (a destructor frees).
TEST(DeviceMemoryChecks, TheNextCallRaisesWhatAFreeFound) {
  for (const long index : {16L, 63L, -1L, -64L}) {
    {
      cg::device_buffer<int> small(16);
      cg::launch(write_at, {dim3(1), dim3(32)}, small.data(), index);
    }
    const cg::error e = launch_error([] { cg::device_buffer<int> other(1); });
    EXPECT_EQ(e.kind(), cg::errc::memory_fault) << index;
    EXPECT_THAT(e.what(), AllOf(HasSubstr("free_device"), HasSubstr(index < 0 ? "before the start" : "past the end"),
                                HasSubstr("allocation of 64 bytes"), HasSubstr("COHORT_CHECK=memory")))
        << index;
  }
}

// COHORT_CHECK=memory: the launch that wrote outside names itself, and an
// index far enough out to leave the redzone faults in a guard zone, which
// names the thread.
TEST(DeviceMemoryChecks, CheckingModeNamesTheLaunchThatWroteARedzone) {
  const scoped_env check("COHORT_CHECK", "memory");
  for (const long index : {16L, -1L}) {
    cg::device_buffer<int> small(16);
    const cg::error e = launch_error([&] { cg::launch(write_at, {dim3(1), dim3(32)}, small.data(), index); });
    EXPECT_EQ(e.kind(), cg::errc::memory_fault) << index;
    EXPECT_THAT(e.what(), AllOf(HasSubstr("write_at(int*, long)` wrote outside device memory"),
                                HasSubstr(index < 0 ? "before the start" : "past the end")))
        << index;
  }
}

TEST(DeviceMemoryChecks, CheckingModeTurnsAFarIndexIntoAFaultNamingTheThread) {
  const scoped_env check("COHORT_CHECK", "memory");
  for (const long index : {64L, 10000L, -1000L}) {
    cg::device_buffer<int> small(16);
    const cg::error e = launch_error([&] { cg::launch(write_at, {dim3(2), dim3(32)}, small.data(), index); });
    EXPECT_EQ(e.kind(), cg::errc::memory_fault) << index;
    EXPECT_THAT(e.what(), AllOf(HasSubstr("invalid memory access"), HasSubstr("write_at(int*, long)"),
                                HasSubstr("block (0,0,0), thread (5,0,0)"), HasSubstr("allocation of 64 bytes")))
        << index;
  }
}

TEST(DeviceMemoryChecks, CheckingModePoisonsFreshAllocations) {
  const scoped_env check("COHORT_CHECK", "memory");
  cg::device_buffer<unsigned char> fresh(100);
  for (const unsigned char b : fresh.to_host()) ASSERT_EQ(b, 0xCD);
}

// Writes through whatever it is given, a null pointer included (a planted
// fault: UBSan is told not to stop it first).
__attribute__((no_sanitize("null"))) __global__ void null_write(int* data) { data[threadIdx.x] = 1; }

TEST(DeviceMemoryChecks, ANullPointerInAKernelIsAnErrorNamingTheThread) {
  const cg::error e = launch_error([] { cg::launch(null_write, {dim3(1), dim3(8)}, static_cast<int*>(nullptr)); });
  EXPECT_EQ(e.kind(), cg::errc::memory_fault);
  EXPECT_THAT(e.what(), AllOf(HasSubstr("invalid memory access"), HasSubstr("null_write(int*)"),
                              HasSubstr("thread (0,0,0)"), HasSubstr("null pointer")));
  // The worker that took the fault runs the next launch as usual.
  cg::device_buffer<int> ok(8);
  cg::launch(null_write, {dim3(1), dim3(8)}, ok.data());
  EXPECT_EQ(ok.to_host()[7], 1);
}

// Each thread writes an int from data[from] on: 1 KiB for a block of 256.
__global__ void fill_from(int* data, long from) { data[from + threadIdx.x] = -1; }

// A write running on past the redzone, by default, lands in device memory
// (the arena's, as on a GPU), not in the runtime's own data on the malloc
// heap: the damaged redzone is reported as usual and the program goes on. In
// a child process, whose arena holds nothing else for the write to reach.
TEST(DeviceMemoryDeathTest, AWriteRunningFarPastAnAllocationLeavesTheRuntimeWhole) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        {
          cg::device_buffer<int> small(16);
          cg::launch(fill_from, {dim3(1), dim3(256)}, small.data(), 16L);
        }
        const cg::error e = launch_error([] { cg::device_buffer<int> other(1); });
        std::fprintf(stderr, "reported: %s\n", e.what());
        for (int i = 1; i <= 64; ++i) {
          cg::device_buffer<int> other(static_cast<std::size_t>(i) * 8);
          const std::vector<std::string> host_churn(static_cast<std::size_t>(i), std::string(100, 'x'));
          cg::launch(write_at, {dim3(2), dim3(32)}, other.data(), 0L);
        }
        std::exit(0);
      },
      ::testing::ExitedWithCode(0), "reported: free_device.*the byte 0 past the end of the allocation of 64 bytes");
}

TEST(DeviceMemoryChecks, AnUnmappedAddressInAKernelIsAnError) {
  void* page = mmap(nullptr, 1 << 16, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(page, MAP_FAILED);
  const cg::error e = launch_error([&] { cg::launch(null_write, {dim3(1), dim3(8)}, static_cast<int*>(page)); });
  munmap(page, 1 << 16);
  EXPECT_EQ(e.kind(), cg::errc::memory_fault);
  EXPECT_THAT(e.what(), AllOf(HasSubstr("invalid memory access"), HasSubstr("not inside any device allocation")));
}

TEST(KernelSideCallsFromHostCode, BarriersThrow) {
  try {
    __syncthreads();
    ADD_FAILURE() << "no error";
  } catch (const cg::error& e) {
    EXPECT_EQ(e.kind(), cg::errc::invalid_argument);
    EXPECT_THAT(e.what(), AllOf(HasSubstr("__syncthreads"), HasSubstr("called outside a kernel")));
  }
  try {
    cg::this_grid().sync();
    ADD_FAILURE() << "no error";
  } catch (const cg::error& e) {
    EXPECT_THAT(e.what(), AllOf(HasSubstr("grid barrier"), HasSubstr("called outside a kernel")));
  }
}

// threadIdx & co. are variables, as nvcc declares them (host code may shadow them): read in host
// code they hold zeros or the last block's values. A warp intrinsic needs its thread's record.
TEST(KernelSideCallsFromHostCodeDeathTest, IntrinsicsSayWhy) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  // Under UBSan its own report of the null pointer (a record, the thread's position) comes first.
  const char* says =
      "used outside a kernel|null pointer of type '(const )?(struct )?(cohort::(host|detail::host)::)?"
      "(thread_record|thread_position|block_record)'";
  EXPECT_DEATH({ [[maybe_unused]] volatile int v = __shfl_sync(0xffffffffu, 1, 0); }, says);
  EXPECT_DEATH({ [[maybe_unused]] volatile unsigned v = __ballot_sync(0xffffffffu, 1); }, says);
}

// A null pointer of the host code's own, in a program that has launched
// kernels, is an ordinary crash: not blamed on threadIdx & co., whose reads
// outside a kernel fault on a page of their own. In a child process (fork:
// the crash must not take the test with it), whose stderr is read back.
std::string stderr_of_near_null_write() {
  int out[2];
  if (pipe(out) != 0) return "pipe failed";
  const pid_t child = fork();
  if (child == 0) {
    dup2(out[1], 2);
    *reinterpret_cast<volatile int*>(std::uintptr_t{8}) = 1;
    _exit(0);
  }
  close(out[1]);
  std::string text;
  char buffer[512];
  for (ssize_t n; (n = read(out[0], buffer, sizeof buffer)) > 0;) text.append(buffer, static_cast<std::size_t>(n));
  close(out[0]);
  int status = 0;
  waitpid(child, &status, 0);
  const bool crashed = WIFSIGNALED(status) || (WIFEXITED(status) && WEXITSTATUS(status) != 0);  // sanitizers exit
  return crashed ? text : "the child did not crash";
}

TEST(KernelSideCallsFromHostCode, ANullPointerOfTheHostCodeIsNotBlamedOnKernelState) {
  cg::device_buffer<int> out(1);
  cg::launch(write_at, {dim3(1), dim3(8)}, out.data(), 0L);
  const std::string printed = stderr_of_near_null_write();
  EXPECT_NE(printed, "the child did not crash");
  EXPECT_THAT(printed, ::testing::Not(HasSubstr("outside a kernel")));
}

}  // namespace
