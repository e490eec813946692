// Per-thread loops run in rounds (iteration k of every thread of a row, then
// k + 1; docs/loops-engine.md "Per-thread loops in rounds"): the same results
// as on fibers, element by element, for trip counts that differ per thread,
// threads with none, partial and 2-D blocks, threads that return before the
// loop or leave it early; a loop with an atomic keeps its order (and, in
// loops_rounds_remarks, is not run in rounds). ctest runs them shuffled too.
#include <gtest/gtest.h>

#include <vector>

#include "both_engines.hpp"
#include "cohort/host/engine.hpp"
#include "rounds_kernels.hpp"

namespace {

using cohort::host::engine;

class LoopsRounds : public loops_tests::engine_mode_test {};

struct shape {
  dim3 grid, block;
};

// Blocks of 1024 (a stride of 4096 floats, as reductionMultiBlockCG's), a
// partial last warp, 2-D blocks (two rows and more), one thread.
const shape shapes[] = {
    {dim3(4), dim3(1024)}, {dim3(3), dim3(100)}, {dim3(2), dim3(16, 5)}, {dim3(5), dim3(7, 3, 2)}, {dim3(1), dim3(1)}};

// Floats so many that every thread makes several rounds of iterations (19 or
// 20: two of 8 and part of a third) or part of one round (7 or 8), the last
// threads one fewer (n not a multiple of the grid's threads), and so few that
// some threads make none.
std::vector<unsigned> sizes_for(const shape& s) {
  const unsigned threads = s.grid.x * s.block.x * s.block.y * s.block.z;
  return {19 * threads + threads / 5 + 3, 7 * threads + threads / 3 + 1, threads / 2 + 1, 1};
}

TEST_F(LoopsRounds, BarrierFreeGridStrideLoopsMatchFibers) {
  ASSERT_EQ(rounds_tests::scaled_grid_stride_engine().chosen, engine::loops)
      << rounds_tests::scaled_grid_stride_engine().reason;
  for (const shape& s : shapes)
    for (unsigned n : sizes_for(s)) {
      SCOPED_TRACE(::testing::Message() << "n " << n << ", block " << s.block.x << "x" << s.block.y << "x"
                                        << s.block.z);
      const std::vector<float> in = loops_tests::random_floats(n, n);
      loops_tests::expect_same_on_both<float>([&] { return rounds_tests::scaled_grid_stride(in, s.grid, s.block); },
                                              engine::loops);
      const std::vector<float> out = rounds_tests::scaled_grid_stride(in, s.grid, s.block);
      for (unsigned i = 0; i < n; ++i) ASSERT_EQ(out[i], 0.5f + (2.0f * in[i] + 1.0f)) << "element " << i;
    }
}

TEST_F(LoopsRounds, GridStrideSumsBetweenBarriersMatchFibers) {
  ASSERT_EQ(rounds_tests::block_sums_engine().chosen, engine::loops) << rounds_tests::block_sums_engine().reason;
  for (const shape& s : shapes) {
    const unsigned block_threads = s.block.x * s.block.y * s.block.z;
    for (unsigned active : {block_threads, block_threads / 2 + 1})
      for (unsigned n : sizes_for(s)) {
        SCOPED_TRACE(::testing::Message() << "n " << n << ", active " << active << ", block " << s.block.x << "x"
                                          << s.block.y << "x" << s.block.z);
        const std::vector<float> in = loops_tests::random_floats(n, n + active);
        loops_tests::expect_same_on_both<float>([&] { return rounds_tests::block_sums(in, s.grid, s.block, active); },
                                                engine::loops);
        // By hand: thread t of block b sums in[b * threads + t + k * stride] in k's order, as a double.
        const std::vector<float> got = rounds_tests::block_sums(in, s.grid, s.block, active);
        const unsigned stride = s.grid.x * block_threads;
        for (unsigned b = 0; b < s.grid.x; ++b)
          for (unsigned t = 0; t < block_threads; ++t) {
            double sum = 0;
            if (t < active)
              for (unsigned i = b * block_threads + t; i < n; i += stride) sum += in[i];
            ASSERT_EQ(got[b * block_threads + t], static_cast<float>(sum)) << "block " << b << ", thread " << t;
          }
      }
  }
}

TEST_F(LoopsRounds, LoopsLeftEarlyMatchFibers) {
  ASSERT_EQ(rounds_tests::sums_to_first_negative_engine().chosen, engine::loops)
      << rounds_tests::sums_to_first_negative_engine().reason;
  for (const shape& s : shapes)
    for (unsigned n : sizes_for(s)) {
      SCOPED_TRACE(::testing::Message() << "n " << n << ", block " << s.block.x << "x" << s.block.y << "x"
                                        << s.block.z);
      const std::vector<float> in = loops_tests::random_floats(n, 3 * n);  // about half of them negative
      loops_tests::expect_same_on_both<float>([&] { return rounds_tests::sums_to_first_negative(in, s.grid, s.block); },
                                              engine::loops);
      const std::vector<float> got = rounds_tests::sums_to_first_negative(in, s.grid, s.block);
      const unsigned stride = s.grid.x * s.block.x * s.block.y * s.block.z;
      for (unsigned rank = 0; rank < got.size(); ++rank) {
        float sum = 0;
        for (unsigned i = rank; i < n && in[i] >= 0; i += stride) sum += in[i];
        ASSERT_EQ(got[rank], sum) << "thread " << rank;
      }
    }
}

TEST_F(LoopsRounds, ALoopWithAnAtomicCountsEveryElement) {
  ASSERT_EQ(rounds_tests::atomic_histogram_engine().chosen, engine::loops)
      << rounds_tests::atomic_histogram_engine().reason;
  const std::vector<int> in = loops_tests::random_ints(10007, 37);
  std::vector<int> expected(8, 0);
  for (int v : in) ++expected[(v % 8 + 8) % 8];
  for (const shape& s : shapes) {
    loops_tests::expect_same_on_both<int>([&] { return rounds_tests::atomic_histogram(in, s.grid, s.block); },
                                          engine::loops);
    EXPECT_EQ(rounds_tests::atomic_histogram(in, s.grid, s.block), expected);
  }
}

}  // namespace
