// The worker's alternate signal stack (its overflow handler runs there): a
// thread that has one keeps it, as the sanitizers need (they install their
// own on every thread and unmap it themselves at thread exit).
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/mman.h>

#include <cohort/cohort.hpp>
#include <thread>

namespace cg = cohort;

namespace {

__global__ void parks(int* out) {
  __syncthreads();
  out[threadIdx.x] = 1;
}

TEST(SignalStacks, ALaunchingThreadKeepsItsOwnAlternateStack) {
  std::thread([] {
    constexpr std::size_t bytes = 1 << 16;
    void* mine = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ASSERT_NE(mine, MAP_FAILED);
    stack_t alt{}, before{};
    alt.ss_sp = mine;
    alt.ss_size = bytes;
    ASSERT_EQ(sigaltstack(&alt, &before), 0);
    {
      cg::device_buffer<int> out(32);
      cg::launch(parks, {dim3(1), dim3(32)}, out.data());  // the calling thread runs the block
    }
    stack_t now{};
    ASSERT_EQ(sigaltstack(nullptr, &now), 0);
    EXPECT_EQ(now.ss_sp, mine);
    EXPECT_EQ(now.ss_size, bytes);
    // Whatever the thread had before goes back (a sanitizer unmaps it at thread exit).
    sigaltstack(&before, nullptr);
    munmap(mine, bytes);
  }).join();
}

TEST(SignalStacks, AThreadWithoutOneGetsOneForItsLaunches) {
  std::thread([] {
    stack_t off{}, before{};
    off.ss_flags = SS_DISABLE;
    ASSERT_EQ(sigaltstack(&off, &before), 0);
    {
      cg::device_buffer<int> out(32);
      cg::launch(parks, {dim3(1), dim3(32)}, out.data());
    }
    stack_t now{};
    ASSERT_EQ(sigaltstack(nullptr, &now), 0);
    EXPECT_FALSE(now.ss_flags & SS_DISABLE);
    // At thread exit the worker takes it down before freeing it; the sanitizer
    // then finds none of its own to unmap, which it allows.
  }).join();
}

}  // namespace
