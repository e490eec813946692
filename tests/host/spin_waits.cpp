// Spin-waits on the host backend: a thread polling a flag through atomics
// lets the other threads of its block run (legal on sm_70+, where threads are
// scheduled independently), and a spin no thread can ever end is turned into
// an error naming the spinning thread and its line instead of a hang.
#include <gmock/gmock.h>

#include <cohort/cohort.hpp>

#include "host_support.hpp"
#include "test_support.hpp"

namespace cg = cohort;
using ::testing::AllOf;
using ::testing::HasSubstr;

namespace {

using cohort_test::launch_error;
using cohort_test::scoped_env;

std::string at_line(int line) { return cohort_test::at_line("spin_waits.cpp", line); }

// Thread 0 waits for thread 1 with no barrier between them.
__global__ void waits_for_a_later_thread(int* flag, int* out) {
  if (threadIdx.x == 0) {
    while (atomicAdd(flag, 0) == 0) {
    }
    out[0] = 1;
  } else if (threadIdx.x == 1) {
    atomicExch(flag, 1);
  }
}

TEST(SpinWaits, AThreadWaitingForALaterOneLetsItRun) {
  cg::device_buffer<int> flag(std::vector<int>{0}), out(std::vector<int>{0});
  cg::launch(waits_for_a_later_thread, {dim3(4), dim3(64)}, flag.data(), out.data());
  EXPECT_EQ(out.to_host()[0], 1);
}

// Thread 0 polls right after a barrier released every thread, before the
// others have run again: they run (thread 1 raises the flag), and thread 0
// resumes where it was, its frame (a call of its own) and values intact.
[[gnu::noinline]] __device__ void wait_for_flag(int* flag) {
  while (atomicAdd(flag, 0) == 0) {
  }
}

__global__ void polls_before_the_released_threads_run(int* flag, int* out) {
  const int mine = 100 + static_cast<int>(threadIdx.x);
  __syncthreads();
  if (threadIdx.x == 0)
    wait_for_flag(flag);
  else if (threadIdx.x == 1)
    atomicExch(flag, 1);
  out[threadIdx.x] = mine;
}

TEST(SpinWaits, AThreadPollingBeforeTheThreadsABarrierReleasedLetsThemRunFirst) {
  cg::device_buffer<int> flag(std::vector<int>{0}), out(64);
  cg::launch(polls_before_the_released_threads_run, {dim3(1), dim3(64)}, flag.data(), out.data());
  const std::vector<int> got = out.to_host();
  for (int i = 0; i < 64; ++i) EXPECT_EQ(got[i], 100 + i) << "thread " << i;
}

// The same through each way of polling: a CAS lock, atomic_ref's load, fences
// over a volatile flag, __nanosleep.
__global__ void spin_lock_counter(int* lock, int* counter) {
  while (atomicCAS(lock, 0, 1) != 0) {
  }
  const int v = *counter;
  __nanosleep(10);  // hold the lock across a yield
  *counter = v + 1;
  atomicExch(lock, 0);
}

TEST(SpinWaits, ASpinLockHeldAcrossAYieldStillCountsExactly) {
  cg::device_buffer<int> lock(std::vector<int>{0}), counter(std::vector<int>{0});
  cg::launch(spin_lock_counter, {dim3(3), dim3(96)}, lock.data(), counter.data());
  EXPECT_EQ(counter.to_host()[0], 3 * 96);
}

__global__ void fence_and_ref_polls(int* flag, int* out) {
  if (threadIdx.x == 0) {
    while (cg::atomic_ref<int, cg::thread_scope_block>(flag[0]).load() == 0) {
    }
    while (*static_cast<volatile int*>(&flag[1]) == 0) __threadfence_block();
    out[0] = 2;
  } else if (threadIdx.x == blockDim.x - 1) {
    atomicExch(&flag[0], 1);
    atomicExch(&flag[1], 1);
  }
}

TEST(SpinWaits, AtomicRefLoadsAndFencesYieldToo) {
  cg::device_buffer<int> flag(std::vector<int>{0, 0}), out(std::vector<int>{0});
  cg::launch(fence_and_ref_polls, {dim3(1), dim3(256)}, flag.data(), out.data());
  EXPECT_EQ(out.to_host()[0], 2);
}

// Thread 0 waits for thread 1 right after a barrier, which released thread 1
// without resuming it yet: the yield must resume thread 1, not thread 0
// itself (whose switch to itself resumed a stale context: faults, wild jumps,
// false stack overflows). More spins in tests/host/spin_after_collectives.
__global__ void waits_right_after_a_barrier(int* flags, int* out) {
  __syncthreads();
  if (threadIdx.x == 0) {
    while (atomicAdd(&flags[blockIdx.x], 0) == 0) {
    }
    out[blockIdx.x] = 1;
  } else if (threadIdx.x == 1) {
    atomicExch(&flags[blockIdx.x], 1);
  }
}

TEST(SpinWaits, AThreadSpinningRightAfterABarrierLetsTheReleasedThreadsRun) {
  const unsigned blocks = 8;
  cg::device_buffer<int> flags(std::vector<int>(blocks, 0)), out(std::vector<int>(blocks, 0));
  cg::launch(waits_right_after_a_barrier, {dim3(blocks), dim3(64)}, flags.data(), out.data());
  EXPECT_EQ(out.to_host(), std::vector<int>(blocks, 1));
}

// One fence (or one atomic that reads the same value) per thread and block is
// no spin: the count of polls in a row starts afresh in every block, though a
// worker's thread records serve block after block and launch after launch.
// (Counted across blocks, every 64th block's thread yielded right after the
// barrier, which the yield above got wrong: 63 blocks passed, 100 failed
// with a false "fiber stack overflow".)
__global__ void fences_after_a_barrier(int* out) {
  __syncthreads();
  __threadfence();
  out[blockIdx.x * blockDim.x + threadIdx.x] = static_cast<int>(blockIdx.x);
}
__global__ void same_atomic_after_a_barrier(int* counter, int* out) {
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = atomicAdd(counter, 0);
}

TEST(SpinWaits, AFencePerBlockInManyBlocksIsNotASpin) {
  const unsigned blocks = 100, threads = 2;
  std::vector<int> expected(blocks * threads);
  for (unsigned i = 0; i < expected.size(); ++i) expected[i] = static_cast<int>(i / threads);
  cg::device_buffer<int> out(blocks * threads);
  for (int launch = 0; launch < 3; ++launch) {
    cg::launch(fences_after_a_barrier, {dim3(blocks), dim3(threads)}, out.data());
    EXPECT_EQ(out.to_host(), expected) << "launch " << launch;
  }
  cg::device_buffer<int> counter(std::vector<int>{7});
  cg::launch(same_atomic_after_a_barrier, {dim3(blocks), dim3(threads)}, counter.data(), out.data());
  EXPECT_EQ(out.to_host(), std::vector<int>(blocks * threads, 7));
}

// __nanosleep yields at every call: the first launch's sleeps must leave
// nothing behind that breaks the next launch's.
__global__ void sleeps_after_a_barrier(int* out) {
  __syncthreads();
  __nanosleep(10);
  out[threadIdx.x] += 1;
}

TEST(SpinWaits, ASleepAfterABarrierWorksLaunchAfterLaunch) {
  const unsigned threads = 64;
  cg::device_buffer<int> out(std::vector<int>(threads, 0));
  for (int launch = 0; launch < 4; ++launch) cg::launch(sleeps_after_a_barrier, {dim3(1), dim3(threads)}, out.data());
  EXPECT_EQ(out.to_host(), std::vector<int>(threads, 4));
}

// Misuse: warp 0 spins on a flag warp 1 sets only after a barrier that warp 0
// never reaches.
constexpr int stalled_spin_line = __LINE__ + 3;
__global__ void spins_past_a_barrier(int* flag) {
  if (threadIdx.x < 32) {
    while (atomicAdd(flag, 0) == 0) {
    }
  } else {
    __syncthreads();
    atomicExch(flag, 1);
  }
}

TEST(SpinWaits, ASpinNoThreadCanEndIsAnErrorNamingIt) {
  const scoped_env watchdog("COHORT_WATCHDOG", "1");
  cg::device_buffer<int> flag(std::vector<int>{0});
  const cg::error e = launch_error([&] { cg::launch(spins_past_a_barrier, {dim3(1), dim3(64)}, flag.data()); });
  EXPECT_EQ(e.kind(), cg::errc::deadlock);
  EXPECT_THAT(e.what(), AllOf(HasSubstr("spin-wait without progress"), HasSubstr("spins_past_a_barrier(int*)"),
                              HasSubstr("block (0,0,0), thread ("), HasSubstr(at_line(stalled_spin_line)),
                              HasSubstr("COHORT_WATCHDOG")));
}

}  // namespace
