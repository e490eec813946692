// grid.sync() under stress: thousands of grid barriers across every
// co-resident block; each round every block reads what every other block
// wrote before the barrier, and the checksums must be exact.
#include <cohort/cohort.hpp>

#include "test_support.hpp"

namespace cg = cohort;

namespace {

__device__ unsigned long long mix(unsigned long long round, unsigned long long block) {
  return (round + 1) * 0x9E3779B97F4A7C15ull ^ (block * 0xC2B2AE3D27D4EB4Full);
}

// slots[2][blocks]: round r writes slots[r % 2], reads all of them after the
// barrier; the second barrier keeps round r+2's writes out of round r's reads.
__global__ void exchange_every_round(unsigned long long* slots, unsigned long long* sums, int rounds, bool split) {
  const cg::grid_group grid = cg::this_grid();
  const cg::thread_block block = cg::this_thread_block();
  const unsigned long long blocks = grid.num_blocks();
  const unsigned long long me = grid.block_rank();
  unsigned long long sum = 0;
  for (int r = 0; r < rounds; ++r) {
    unsigned long long* row = slots + (r % 2) * blocks;
    if (block.thread_rank() == 0) row[me] = mix(r, me);
    if (split) {
      auto token = grid.barrier_arrive();
      grid.barrier_wait(std::move(token));
    } else {
      grid.sync();
    }
    for (unsigned long long b = block.thread_rank(); b < blocks; b += block.num_threads()) sum += row[b];
  }
  sums[grid.thread_rank()] = sum;
}

void run_exchange(unsigned threads, int rounds, bool split, int blocks_wanted = 0) {
  const int capacity = cg::max_cooperative_grid(exchange_every_round, static_cast<int>(threads));
  ASSERT_GT(capacity, 0);
  const int blocks = blocks_wanted ? std::min(blocks_wanted, capacity) : capacity;
  cg::device_buffer<unsigned long long> slots(2 * blocks);
  slots.fill(0);
  auto sums = cohort_test::poisoned<unsigned long long>(static_cast<std::size_t>(blocks) * threads, ~0ull);
  cg::launch_cooperative(exchange_every_round, {dim3(blocks), dim3(threads)}, slots.data(), sums.data(), rounds, split);
  const auto got = sums.to_host();
  for (int b = 0; b < blocks; ++b)
    for (unsigned t = 0; t < threads; ++t) {
      unsigned long long expected = 0;
      for (int r = 0; r < rounds; ++r)
        for (unsigned long long other = t; other < static_cast<unsigned long long>(blocks); other += threads) {
          expected += ((r + 1) * 0x9E3779B97F4A7C15ull) ^ (other * 0xC2B2AE3D27D4EB4Full);
        }
      ASSERT_EQ(got[static_cast<std::size_t>(b) * threads + t], expected) << "block " << b << " thread " << t;
    }
}

TEST(GridSync, ThousandsOfRoundsAtFullOccupancy) { run_exchange(64, 2000, false); }
TEST(GridSync, SplitArriveAndWait) { run_exchange(128, 500, true); }
TEST(GridSync, OneThreadPerBlock) { run_exchange(1, 1000, false); }
TEST(GridSync, LargeBlocks) { run_exchange(1024, 200, false); }

// Blocks of a 2-D cooperative grid see each other's writes after grid.sync().
__global__ void transpose_through_global(unsigned* scratch, unsigned* out) {
  const cg::grid_group grid = cg::this_grid();
  const unsigned long long n = grid.num_threads();
  const unsigned long long me = grid.thread_rank();
  scratch[me] = static_cast<unsigned>(me * 3 + 1);
  grid.sync();
  out[me] = scratch[n - 1 - me];
}

TEST(GridSync, TwoDimensionalGrid) {
  const dim3 grid(2, 3), block(8, 4);
  const std::size_t n = 6 * 32;
  cg::device_buffer<unsigned> scratch(n);
  auto out = cohort_test::poisoned<unsigned>(n, 0xDEADBEEF);
  cg::launch_cooperative(transpose_through_global, {grid, block}, scratch.data(), out.data());
  const auto got = out.to_host();
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(got[i], (n - 1 - i) * 3 + 1);
}

}  // namespace
