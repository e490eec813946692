// Every diagnostic of the launch API and the barriers, triggered, with its message asserted:
// each is an error of the launch naming the kernel, block, thread and call
// site — never a hang, never a crash.
#include <gmock/gmock.h>
#include <sys/resource.h>

#include <fstream>
#include <string>

#include <cohort/cohort.hpp>

#include "host_support.hpp"
#include "test_support.hpp"

namespace cg = cohort;
using ::testing::AllOf;
using ::testing::HasSubstr;

namespace {

std::string at_line(int line) { return cohort_test::at_line("launch_diagnostics.cpp", line); }

using cohort_test::launch_error;

constexpr int non_cooperative_sync_line = __LINE__ + 2;
__global__ void grid_sync_without_cooperation(int* out) {
  cg::this_grid().sync();
  out[0] = 1;
}

TEST(Diagnostics, GridSyncInANonCooperativeLaunch) {
  cg::device_buffer<int> out(1);
  const cg::error e = launch_error([&] { cg::launch(grid_sync_without_cooperation, {dim3(2), dim3(32)}, out.data()); });
  EXPECT_EQ(e.kind(), cg::errc::not_cooperative);
  EXPECT_THAT(e.what(),
              AllOf(HasSubstr("grid barrier at"), HasSubstr(at_line(non_cooperative_sync_line)),
                    HasSubstr("grid_sync_without_cooperation(int*)"), HasSubstr("block ("), HasSubstr("thread (0,0,0)"),
                    HasSubstr("not launched cooperatively"), HasSubstr("cohort::launch_cooperative")));
}

constexpr int unreachable_sync_line = __LINE__ + 5;
__global__ void one_block_leaves_before_the_grid_barrier(int* out) {
  cg::grid_group grid = cg::this_grid();
  grid.sync();
  if (grid.block_rank() == 1) return;
  grid.sync();
  out[grid.block_rank()] = 1;
}

TEST(Diagnostics, GridSyncThatAnExitedBlockCanNeverReach) {
  cg::device_buffer<int> out(4);
  const cg::error e = launch_error(
      [&] { cg::launch_cooperative(one_block_leaves_before_the_grid_barrier, {dim3(3), dim3(16)}, out.data()); });
  EXPECT_EQ(e.kind(), cg::errc::unreachable_barrier);
  EXPECT_THAT(e.what(), AllOf(HasSubstr("can never complete"), HasSubstr("block (1,0,0) exited after arriving at 1"),
                              HasSubstr(at_line(unreachable_sync_line)),
                              HasSubstr("one_block_leaves_before_the_grid_barrier(int*)")));
}

constexpr int first_barrier_line = __LINE__ + 4;
constexpr int second_barrier_line = __LINE__ + 5;
__global__ void two_barriers_for_one_block() {
  if (threadIdx.x < 16) {
    __syncthreads();
  } else {
    cg::this_thread_block().sync();
  }
}

TEST(Diagnostics, ThreadsOfABlockAtDifferentBarrierCallSites) {
  const cg::error e = launch_error([&] { cg::launch(two_barriers_for_one_block, {dim3(1), dim3(32)}); });
  EXPECT_EQ(e.kind(), cg::errc::barrier_mismatch);
  EXPECT_THAT(e.what(), AllOf(HasSubstr("threads of block (0,0,0)"), HasSubstr("two_barriers_for_one_block()"),
                              HasSubstr("thread (0,0,0) at"), HasSubstr(at_line(first_barrier_line)),
                              HasSubstr("thread (16,0,0) at"), HasSubstr(at_line(second_barrier_line))));
}

constexpr int deadlock_block_line = __LINE__ + 4;
constexpr int deadlock_grid_line = __LINE__ + 5;
__global__ void half_at_the_block_barrier_half_at_the_grid_barrier() {
  if (threadIdx.x % 2 == 0)
    __syncthreads();
  else
    cg::this_grid().sync();
}

TEST(Diagnostics, DeadlockWhenNoThreadCanProceed) {
  const cg::error e = launch_error(
      [&] { cg::launch_cooperative(half_at_the_block_barrier_half_at_the_grid_barrier, {dim3(2), dim3(64)}); });
  EXPECT_EQ(e.kind(), cg::errc::deadlock);
  EXPECT_THAT(
      e.what(),
      AllOf(
          HasSubstr("deadlock in kernel `(anonymous namespace)::half_at_the_block_barrier_half_at_the_grid_barrier()`"),
          HasSubstr("none of its 64 live threads can make progress"), HasSubstr("32 threads wait at a block barrier"),
          HasSubstr("32 threads wait at a grid barrier"), HasSubstr(at_line(deadlock_block_line)),
          HasSubstr(at_line(deadlock_grid_line))));
}

__global__ void waits_for_a_phase_nobody_completes() {
  cg::thread_block block = cg::this_thread_block();
  if (block.thread_rank() == 0) {
    auto token = block.barrier_arrive();
    block.barrier_wait(std::move(token));
    block.sync();  // the others have exited, so thread 0 alone completes the barrier
  }
}

TEST(Diagnostics, ABarrierThatOnlyExitedThreadsMissedCompletes) {
  EXPECT_NO_THROW(cg::launch(waits_for_a_phase_nobody_completes, {dim3(2), dim3(64)}));
}

__global__ void uses_dynamic_shared_small(int* out) { out[0] = 2; }

__device__ int deep(int depth) {
  volatile char frame[1024];
  frame[0] = static_cast<char>(depth);
  return depth == 0 ? frame[0] : deep(depth - 1) + frame[0];
}

__global__ void recurses_too_deep(int* out) { out[threadIdx.x] = deep(1 << 20); }

TEST(Diagnostics, FiberStackOverflow) {
  cg::device_buffer<int> out(8);
  const cg::error e = launch_error([&] { cg::launch(recurses_too_deep, {dim3(1), dim3(8)}, out.data()); });
  EXPECT_EQ(e.kind(), cg::errc::stack_overflow);
  EXPECT_THAT(e.what(),
              AllOf(HasSubstr("fiber stack overflow in kernel `(anonymous namespace)::recurses_too_deep(int*)`"),
                    HasSubstr("block (0,0,0), thread (0,0,0)"),
                    // The size in force, and a larger one as the remedy (ctest leaves the 128K default).
                    HasSubstr("needed more than its 131072 bytes of stack (COHORT_STACK_SIZE=128K)"),
                    HasSubstr("e.g. COHORT_STACK_SIZE=256K")));
  // The runtime is usable after an overflow.
  EXPECT_NO_THROW(cg::launch(uses_dynamic_shared_small, {dim3(1), dim3(1)}, out.data()));
}

__global__ void uses_dynamic_shared(int* out) { out[0] = cg::dynamic_shared<int>()[0] = 1; }

TEST(Diagnostics, DynamicSharedMemoryOverTheLimit) {
  cg::device_buffer<int> out(1);
  const cg::error e = launch_error([&] { cg::launch(uses_dynamic_shared, {dim3(1), dim3(32), 100000}, out.data()); });
  EXPECT_EQ(e.kind(), cg::errc::shared_memory_limit);
  EXPECT_THAT(e.what(), AllOf(HasSubstr("dynamic shared memory of 100000 bytes exceeds this kernel's limit of 49152"),
                              HasSubstr("cohort::set_max_dynamic_shared_memory(kernel, 100000)")));
  cg::set_max_dynamic_shared_memory(uses_dynamic_shared, 100000);
  EXPECT_NO_THROW(cg::launch(uses_dynamic_shared, {dim3(1), dim3(32), 100000}, out.data()));
  const cg::error too_much =
      launch_error([&] { cg::launch(uses_dynamic_shared, {dim3(1), dim3(32), 300000}, out.data()); });
  EXPECT_THAT(too_much.what(), HasSubstr("the device allows at most 232448 bytes per block"));
  const cg::error raise = launch_error([&] { cg::set_max_dynamic_shared_memory(uses_dynamic_shared, 300000); });
  EXPECT_EQ(raise.kind(), cg::errc::shared_memory_limit);
}

__global__ void does_nothing() {}

struct bad_config {
  dim3 grid, block;
  const char* message;
};

class InvalidConfiguration : public ::testing::TestWithParam<bad_config> {};

TEST_P(InvalidConfiguration, IsRefusedWithTheLimitNamed) {
  const bad_config c = GetParam();
  const cg::error e = launch_error([&] { cg::launch(does_nothing, {c.grid, c.block}); });
  EXPECT_EQ(e.kind(), cg::errc::invalid_configuration);
  EXPECT_THAT(e.what(), HasSubstr(c.message));
}

INSTANTIATE_TEST_SUITE_P(
    Configurations, InvalidConfiguration,
    ::testing::Values(bad_config{dim3(0), dim3(32), "grid dimensions (0,1,1) contain a zero"},
                      bad_config{dim3(1), dim3(32, 0), "block dimensions (32,0,1) contain a zero"},
                      bad_config{dim3(1), dim3(1025), "block dimension x = 1025 exceeds the device's limit of 1024"},
                      bad_config{dim3(1), dim3(64, 32), "block (64,32,1) has 2048 threads, more than the 1024"},
                      bad_config{dim3(1), dim3(1, 1, 65), "block dimension z = 65 exceeds the device's limit of 64"},
                      bad_config{dim3(1, 65536), dim3(1),
                                 "grid dimension y = 65536 exceeds the device's limit of 65535"}));

TEST(Diagnostics, CooperativeGridOverCapacity) {
  cohort_test::virtual_device_guard guard;
  cg::device_properties p = cohort::host::virtual_device();
  p.multiprocessor_count = 2;
  cohort::host::configure(p);
  const cg::error e = launch_error([&] { cg::launch_cooperative(does_nothing, {dim3(100000), dim3(256)}); });
  EXPECT_EQ(e.kind(), cg::errc::cooperative_too_large);
  EXPECT_STREQ(
      e.what(),
      "cooperative launch of 100000 blocks exceeds the 16 blocks that can be co-resident for this kernel (8 "
      "per SM \xC3\x97 2 SMs at 256 threads); size the grid with cohort::max_cooperative_grid(kernel, 256, 0)");
  EXPECT_NO_THROW(cg::launch_cooperative(does_nothing, {dim3(16), dim3(256)}));
}

__global__ void throws_in_thread_five() {
  if (threadIdx.x == 5) throw std::runtime_error("bad input");
}

TEST(Diagnostics, KernelExceptionBecomesALaunchError) {
  const cg::error e = launch_error([&] { cg::launch(throws_in_thread_five, {dim3(1), dim3(8)}); });
  EXPECT_EQ(e.kind(), cg::errc::kernel_exception);
  EXPECT_THAT(e.what(),
              AllOf(HasSubstr("throws_in_thread_five()"), HasSubstr("thread (5,0,0)"), HasSubstr("bad input")));
}

__global__ void blocks_from_a_rank_on_throw(int first_failing_block) {
  if (static_cast<int>(blockIdx.x) >= first_failing_block && threadIdx.x == 1)
    throw std::runtime_error("block " + std::to_string(blockIdx.x) + " failed");
}

// Blocks of a launch that is not cooperative run on several workers at once;
// the error reported must still be the same on every run: the lowest failing
// block's.
TEST(Diagnostics, ALaunchReportsItsLowestFailingBlockOnEveryRun) {
  for (const int first_failing_block : {0, 5, 63}) {
    for (int run = 0; run < 20; ++run) {
      const cg::error e =
          launch_error([&] { cg::launch(blocks_from_a_rank_on_throw, {dim3(64), dim3(4)}, first_failing_block); });
      EXPECT_EQ(e.kind(), cg::errc::kernel_exception);
      const std::string block = std::to_string(first_failing_block);
      EXPECT_THAT(e.what(), AllOf(HasSubstr("block (" + block + ",0,0), thread (1,0,0)"),
                                  HasSubstr("block " + block + " failed")))
          << "run " << run;
    }
  }
}

__global__ void launches_from_a_kernel() { cg::launch(does_nothing, {dim3(1), dim3(1)}); }

TEST(Diagnostics, LaunchFromAKernel) {
  const cg::error e = launch_error([&] { cg::launch(launches_from_a_kernel, {dim3(1), dim3(1)}); });
  EXPECT_THAT(e.what(), HasSubstr("dynamic parallelism"));
}

// Address space runs out (here RLIMIT_AS, as under `ulimit -v`) while a block
// parks its threads, each on a fiber stack of its own: the launch fails with
// what could not be mapped, why, and a remedy, and the process goes on once
// the limit is lifted.
__global__ void parks_every_thread(int* out) {
  __syncthreads();
  out[threadIdx.x] = static_cast<int>(threadIdx.x);
}

std::size_t address_space_in_use() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);)
    if (line.rfind("VmSize:", 0) == 0) return std::stoull(line.substr(7)) * 1024;
  return 0;
}

TEST(Diagnostics, FiberStacksBeyondTheAddressSpace) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "the sanitizers' allocators end the process when the address space runs out";
#endif
  const cohort_test::scoped_env fibers("COHORT_ENGINE", "fibers");  // a stack per thread; loops need none
  cg::device_buffer<int> out(1024);
  cg::launch(parks_every_thread, {dim3(1), dim3(32)}, out.data());  // the thread's runtime state, warm
  rlimit before{};
  ASSERT_EQ(getrlimit(RLIMIT_AS, &before), 0);
  rlimit tight = before;
  tight.rlim_cur = address_space_in_use() + (1u << 20);
  ASSERT_EQ(setrlimit(RLIMIT_AS, &tight), 0);
  const cg::error e = launch_error([&] { cg::launch(parks_every_thread, {dim3(1), dim3(1024)}, out.data()); });
  ASSERT_EQ(setrlimit(RLIMIT_AS, &before), 0);
  EXPECT_EQ(e.kind(), cg::errc::out_of_memory);
  EXPECT_THAT(e.what(), AllOf(HasSubstr("cannot map 16 fiber stacks of 131072 bytes: Cannot allocate memory ("),
                              HasSubstr("mappings in use, limit "), HasSubstr("lower COHORT_STACK_SIZE")));
  EXPECT_NO_THROW(cg::launch(parks_every_thread, {dim3(1), dim3(1024)}, out.data()));
  EXPECT_EQ(out.to_host()[1023], 1023);
}

// A cooperative grid as large as a device of 256 SMs holds, on the fiber
// engine (an OS thread per block): more threads than the process's memory
// mappings can carry fail before any starts, naming the largest grid that
// fits, and the runtime goes on.
__global__ void syncs_the_grid(int* out) {
  cg::this_grid().sync();
  out[blockIdx.x] = 1;
}

TEST(Diagnostics, CooperativeGridBeyondTheMappingLimit) {
  const cohort_test::scoped_env fibers("COHORT_ENGINE", "fibers");
  const cohort_test::scoped_env sms("COHORT_SM_COUNT", "256");
  const int blocks = cg::max_cooperative_grid(syncs_the_grid, 32);
  long limit = 65530;
  std::ifstream("/proc/sys/vm/max_map_count") >> limit;
  if (blocks * 14L < limit / 4 * 3)
    GTEST_SKIP() << "vm.max_map_count = " << limit << " carries " << blocks
                 << " blocks (COHORT_SM_COUNT counts where the virtual device is first used: ctest runs this test in a "
                    "process of its own)";
  cg::device_buffer<int> out(static_cast<std::size_t>(blocks));
  const cg::error e =
      launch_error([&] { cg::launch_cooperative(syncs_the_grid, {dim3(blocks), dim3(32)}, out.data()); });
  EXPECT_EQ(e.kind(), cg::errc::out_of_memory);
  EXPECT_THAT(e.what(), AllOf(HasSubstr("a launch of " + std::to_string(blocks) + " blocks at once"),
                              HasSubstr("(vm.max_map_count = " + std::to_string(limit)),
                              HasSubstr("launch at most about "), HasSubstr("a smaller COHORT_SM_COUNT")));
  EXPECT_NO_THROW(cg::launch_cooperative(syncs_the_grid, {dim3(64), dim3(32)}, out.data()));
}

}  // namespace
