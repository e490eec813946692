// Block barriers: visibility under random per-thread delays, the split
// arrive/wait form, and threads that exit before the barrier (sm_70+: they no
// longer count).
#include <cohort/cohort.hpp>

#include "test_support.hpp"

namespace cg = cohort;

namespace {

__device__ unsigned spin(unsigned seed, unsigned rounds) {
  unsigned x = seed;
  for (unsigned i = 0; i < rounds; ++i) x = x * 1664525u + 1013904223u;
  return x;
}

// Each round every thread writes its slot after a random delay, the block
// syncs, and every thread reads a slot another thread wrote.
__global__ void rotate_through_shared(const unsigned* delays, unsigned* out, int rounds, bool split) {
  unsigned* slots = cg::dynamic_shared<unsigned>();
  const cg::thread_block block = cg::this_thread_block();
  const unsigned n = block.num_threads();
  const unsigned me = block.thread_rank();
  const unsigned gid = block.group_index().x * n + me;
  unsigned acc = 0;
  for (int r = 0; r < rounds; ++r) {
    const unsigned noise = spin(delays[gid] + r, delays[gid] % 64);
    slots[me] = me * 7919u + r + (noise & 0u);
    if (split) {
      auto token = block.barrier_arrive();
      block.barrier_wait(std::move(token));
    } else {
      block.sync();
    }
    acc = acc * 31u + slots[(me + r + 1) % n];
    __syncthreads();
  }
  out[gid] = acc;
}

unsigned expected_rotation(unsigned me, unsigned n, int rounds) {
  unsigned acc = 0;
  for (int r = 0; r < rounds; ++r) acc = acc * 31u + ((me + r + 1) % n) * 7919u + r;
  return acc;
}

class BlockBarrier : public ::testing::TestWithParam<std::tuple<unsigned, bool>> {};

TEST_P(BlockBarrier, EveryWriteBeforeTheBarrierIsVisibleAfterIt) {
  const auto [threads, split] = GetParam();
  const unsigned blocks = 3;
  const int rounds = 20;
  const auto delays = cohort_test::random_vector<unsigned>(blocks * threads, cohort_test::test_seed(), 0, 1u << 20);
  cg::device_buffer<unsigned> d_delays(delays);
  auto out = cohort_test::poisoned<unsigned>(blocks * threads, 0xDEADBEEF);
  cg::launch(rotate_through_shared, {dim3(blocks), dim3(threads), threads * sizeof(unsigned)}, d_delays.data(),
             out.data(), rounds, split);
  const auto got = out.to_host();
  for (unsigned i = 0; i < blocks * threads; ++i)
    ASSERT_EQ(got[i], expected_rotation(i % threads, threads, rounds)) << "thread " << i;
}

INSTANTIATE_TEST_SUITE_P(Sizes, BlockBarrier,
                         ::testing::Combine(::testing::Values(1u, 32u, 33u, 256u, 1024u), ::testing::Bool()));

// Threads with odd ranks leave at once; the even ones keep synchronizing.
__global__ void half_exit_early(unsigned* out) {
  unsigned* slots = cg::dynamic_shared<unsigned>();
  const cg::thread_block block = cg::this_thread_block();
  const unsigned me = block.thread_rank();
  if (me % 2 == 1) return;
  const unsigned n = block.num_threads();
  for (unsigned r = 0; r < 5; ++r) {
    slots[me] = me + r;
    block.sync();
    const unsigned partner = (me + 2 * (r + 1)) % n;  // even partners are alive and wrote this round
    out[block.group_index().x * n + me] = partner % 2 == 0 ? slots[partner] : 0;
    block.sync();
  }
}

TEST(BlockBarrier, ThreadsThatExitedNoLongerCount) {
  for (unsigned threads : {2u, 64u, 101u, 1024u}) {
    auto out = cohort_test::poisoned<unsigned>(2 * threads, 0xDEADBEEF);
    cg::launch(half_exit_early, {dim3(2), dim3(threads), threads * sizeof(unsigned)}, out.data());
    const auto got = out.to_host();
    for (unsigned b = 0; b < 2; ++b)
      for (unsigned me = 0; me < threads; ++me) {
        const unsigned v = got[b * threads + me];
        if (me % 2 == 1) {
          EXPECT_EQ(v, 0xDEADBEEFu);
          continue;
        }
        const unsigned partner = (me + 2 * 5) % threads;
        EXPECT_EQ(v, partner % 2 == 0 ? partner + 4 : 0) << "threads " << threads << " rank " << me;
      }
  }
}

// Dynamic shared memory is per block and as large as the launch asked.
__global__ void fill_dynamic_shared(unsigned* out, unsigned words) {
  unsigned* s = cg::dynamic_shared<unsigned>();
  const cg::thread_block block = cg::this_thread_block();
  for (unsigned i = block.thread_rank(); i < words; i += block.num_threads()) s[i] = blockIdx.x * words + i;
  block.sync();
  unsigned sum = 0;
  for (unsigned i = 0; i < words; ++i) sum += s[i];
  out[blockIdx.x * block.num_threads() + block.thread_rank()] = sum;
}

TEST(DynamicSharedMemory, IsPrivateToEachBlock) {
  const unsigned words = 12000, threads = 128, blocks = 4;
  auto out = cohort_test::poisoned<unsigned>(threads * blocks, 0xDEADBEEF);
  cg::launch(fill_dynamic_shared, {dim3(blocks), dim3(threads), words * sizeof(unsigned)}, out.data(), words);
  const auto got = out.to_host();
  for (unsigned b = 0; b < blocks; ++b) {
    unsigned sum = 0;
    for (unsigned i = 0; i < words; ++i) sum += b * words + i;
    for (unsigned t = 0; t < threads; ++t) ASSERT_EQ(got[b * threads + t], sum);
  }
}

}  // namespace
