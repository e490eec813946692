// exit(), abort() and std::terminate() reached from kernel code, and exit()
// from a signal handler while a launch runs: the process ends as it would in
// host code (exit's status, atexit handlers; SIGABRT), saying which kernel,
// block and thread, and never crashes or hangs on the way. Each runs in a
// child process (death tests).
#include <gmock/gmock.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cohort/cohort.hpp>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>

namespace cg = cohort;

namespace {

void say_atexit_ran() { std::fputs("atexit handler ran\n", stderr); }

// A death test that hangs fails rather than waiting for ever.
void fail_if_hung() { alarm(60); }

// The abort report words its text in the SIGABRT handler, allocating
// (docs/host-backend.md: a 10 s alarm bounds it), and one test's own SIGINT
// handler calls exit(): under TSan the child would print "signal-unsafe call
// inside of a signal" before what the test expects, and exit with TSan's
// status. Each such death test's child is told not to report these, and
// nothing else (the child is a fresh process, which reads TSAN_OPTIONS).
class signal_unsafe_by_design {
 public:
  signal_unsafe_by_design() {
#if defined(__SANITIZE_THREAD__)
    const char* old = std::getenv("TSAN_OPTIONS");
    if (old) saved_ = old;
    setenv("TSAN_OPTIONS", (saved_ ? *saved_ + ":" : std::string()).append("report_signal_unsafe=0").c_str(), 1);
#endif
  }
  ~signal_unsafe_by_design() {
#if defined(__SANITIZE_THREAD__)
    if (saved_)
      setenv("TSAN_OPTIONS", saved_->c_str(), 1);
    else
      unsetenv("TSAN_OPTIONS");
#endif
  }
  signal_unsafe_by_design(const signal_unsafe_by_design&) = delete;
  signal_unsafe_by_design& operator=(const signal_unsafe_by_design&) = delete;

 private:
  [[maybe_unused]] std::optional<std::string> saved_;
};

__device__ __noinline__ void leave_with(int status) { exit(status); }
constexpr int leave_with_exit_line = __LINE__ - 1;

// The reports name the line of the call: this file is built with line tables
// (-g1, tests/host/CMakeLists.txt), which the runtime reads.
std::string at_line(int line) { return "at [^ ]*kernel_exits\\.cpp:" + std::to_string(line); }

__global__ void exits_from_one_thread(int status) {
  if (blockIdx.x == 1 && threadIdx.x == 3) leave_with(status);
  __syncthreads();
}

TEST(KernelExitsDeathTest, ExitInAKernelEndsTheProcessWithItsStatusNamingTheThread) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        fail_if_hung();
        std::atexit(say_atexit_ran);
        cg::launch(exits_from_one_thread, {dim3(4), dim3(32)}, 7);
        std::fputs("the launch returned\n", stderr);
      },
      ::testing::ExitedWithCode(7),
      "cohort: exit\\(7\\) called in kernel `[^`]*exits_from_one_thread\\(int\\)`, block \\(1,0,0\\), thread "
      "\\(3,0,0\\) \\(from `[^`]*leave_with\\(int\\)`, " +
          at_line(leave_with_exit_line) + "\\); the process exits with status 7\natexit handler ran");
}

__global__ void exits_before_grid_sync(int status) {
  if (blockIdx.x == 2 && threadIdx.x == 0) exit(status);
  cg::this_grid().sync();
}
constexpr int grid_exit_line = __LINE__ - 3;

// The other blocks wait at the grid barrier the exiting block never reaches.
TEST(KernelExitsDeathTest, ExitInACooperativeKernelEndsTheProcessWhileOtherBlocksWait) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        fail_if_hung();
        std::atexit(say_atexit_ran);
        cg::launch_cooperative(exits_before_grid_sync, {dim3(4), dim3(16)}, 0);
      },
      ::testing::ExitedWithCode(0),
      "cohort: exit\\(0\\) called in kernel `[^`]*exits_before_grid_sync\\(int\\)`, block \\(2,0,0\\), thread "
      "\\(0,0,0\\) \\(" +
          at_line(grid_exit_line) + "\\); the process exits with status 0\natexit handler ran");
}

std::atomic<int> waiting_blocks{0};

void exit_on_interrupt(int) { exit(3); }

// Block 0 runs on the launching thread, which waits at the grid barrier for
// block 1, whose thread keeps it busy for ever (a spin that makes progress).
__global__ void keeps_the_grid_waiting(int* counter) {
  if (blockIdx.x == 1 && threadIdx.x == 0) {
    waiting_blocks.fetch_add(1);
    for (;;) atomicAdd(counter, 1);
  }
  cg::this_grid().sync();
}

TEST(KernelExitsDeathTest, ExitFromASignalHandlerDuringACooperativeLaunchEndsTheProcess) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const signal_unsafe_by_design tolerated;
  EXPECT_EXIT(
      {
        fail_if_hung();
        std::atexit(say_atexit_ran);
        signal(SIGINT, exit_on_interrupt);
        const pthread_t launcher = pthread_self();
        std::thread([launcher] {
          while (waiting_blocks.load() == 0) usleep(1000);
          usleep(100 * 1000);  // block 0 is waiting at the grid barrier by now
          pthread_kill(launcher, SIGINT);
        }).detach();
        cg::device_buffer<int> counter(1);
        cg::launch_cooperative(keeps_the_grid_waiting, {dim3(2), dim3(8)}, counter.data());
      },
      ::testing::ExitedWithCode(3), "atexit handler ran");
}

__global__ void aborts_in_one_thread() {
  if (blockIdx.x == 0 && threadIdx.x == 3) abort();
  __syncthreads();
}
constexpr int abort_line = __LINE__ - 3;

TEST(KernelExitsDeathTest, AbortInAKernelNamesTheThreadBeforeTheProcessEnds) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const signal_unsafe_by_design tolerated;
  EXPECT_EXIT(cg::launch(aborts_in_one_thread, {dim3(2), dim3(8)}), ::testing::KilledBySignal(SIGABRT),
              "cohort: abort\\(\\) called in kernel `[^`]*aborts_in_one_thread\\(\\)`, block \\(0,0,0\\), thread "
              "\\(3,0,0\\) \\(" +
                  at_line(abort_line) + "\\); the process ends with SIGABRT");
}

__global__ void aborts_in_every_block() {
  if (threadIdx.x == 3) abort();
  __syncthreads();
}
constexpr int abort_in_every_block_line = __LINE__ - 3;

// The blocks run on several workers, so their aborts come at once: one of
// them is reported, whole, and the others' wait for it rather than end the
// process before it is written (half the runs lost it so).
TEST(KernelExitsDeathTest, AbortsInManyBlocksAtOnceWriteOneWholeReport) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const signal_unsafe_by_design tolerated;
  EXPECT_EXIT(cg::launch(aborts_in_every_block, {dim3(8), dim3(8)}), ::testing::KilledBySignal(SIGABRT),
              "^cohort: abort\\(\\) called in kernel `[^`]*aborts_in_every_block\\(\\)`, block \\([0-7],0,0\\), "
              "thread \\(3,0,0\\) \\(" +
                  at_line(abort_in_every_block_line) + "\\); the process ends with SIGABRT\n$");
}

// glibc's malloc finds the pointer is none of its own and aborts, from
// inside free(): the report allocates all the same.
// (The pointer volatile: a compiler may drop a malloc and free whose memory
// nothing reads, and clang does.)
__global__ void frees_a_pointer_it_did_not_allocate(int offset) {
  if (threadIdx.x == 1) {
    char* volatile p = static_cast<char*>(std::malloc(64));
    std::free(p + offset);
  }
}

TEST(KernelExitsDeathTest, AnAbortFromMallocsOwnCheckInAKernelNamesTheThread) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "the sanitizer's allocator replaces glibc's malloc, whose own check this test needs (ASan "
                  "reports the bad free() itself, TSan a heap-use-after-free)";
#endif
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        fail_if_hung();
        cg::launch(frees_a_pointer_it_did_not_allocate, {dim3(1), dim3(4)}, 4);
      },
      ::testing::KilledBySignal(SIGABRT),
      "free\\(\\): invalid pointer\ncohort: abort\\(\\) called in kernel "
      "`[^`]*frees_a_pointer_it_did_not_allocate\\(int\\)`, block \\(0,0,0\\), thread \\(1,0,0\\)");
}

__device__ __noinline__ void throws_an_error() { throw std::runtime_error("no way on"); }
constexpr int throw_line = __LINE__ - 1;

__global__ void throws_through_noexcept() {
  if (threadIdx.x == 2) []() noexcept { throws_an_error(); }();
}

// g++ calls std::terminate from the throw, the thrower's frame still on the
// stack; clang from the noexcept function's handler, the stack unwound to it
// (here the kernel, into which the lambda is inlined): the report can name no
// function below the kernel, at most a line of the kernel.
std::string terminate_from() {
#if defined(__clang__)
  return "( \\(at [^)]*\\))?";
#else
  return " \\(from `[^`]*throws_an_error\\(\\)`, " + at_line(throw_line) + "\\)";
#endif
}

TEST(KernelExitsDeathTest, AnExceptionLeavingANoexceptFunctionNamesTheThreadAndTheThrower) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const signal_unsafe_by_design tolerated;
  EXPECT_EXIT(cg::launch(throws_through_noexcept, {dim3(1), dim3(8)}), ::testing::KilledBySignal(SIGABRT),
              "cohort: std::terminate\\(\\) called in kernel `[^`]*throws_through_noexcept\\(\\)`, block \\(0,0,0\\), "
              "thread \\(2,0,0\\)" +
                  terminate_from() +
                  ": an exception left a noexcept function, or a destructor threw while an exception was in "
                  "flight; the process ends with SIGABRT");
}

struct throws_when_destroyed {
  ~throws_when_destroyed() noexcept(false) { throw std::logic_error("from a destructor"); }
};

__global__ void destructor_throws_during_unwinding() {
  if (threadIdx.x == 1) {
    throws_when_destroyed guard;
    throw std::runtime_error("first");
  }
}

TEST(KernelExitsDeathTest, ADestructorThrowingDuringUnwindingNamesTheThread) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const signal_unsafe_by_design tolerated;
  EXPECT_EXIT(cg::launch(destructor_throws_during_unwinding, {dim3(1), dim3(4)}), ::testing::KilledBySignal(SIGABRT),
              "cohort: std::terminate\\(\\) called in kernel `[^`]*destructor_throws_during_unwinding\\(\\)`, block "
              "\\(0,0,0\\), thread \\(1,0,0\\)");
}

// Host code keeps the C library's exit() and abort(), with nothing added.
TEST(KernelExitsDeathTest, ExitAndAbortInHostCodeAreTheCLibrarys) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        std::atexit(say_atexit_ran);
        exit(5);
      },
      ::testing::ExitedWithCode(5), "^atexit handler ran\n$");
  EXPECT_EXIT(abort(), ::testing::KilledBySignal(SIGABRT), "^$");
}

}  // namespace
