// Grid barriers on the loops engine (docs/loops-engine.md, "Grid barriers"):
// kernels whose block functions return to the scheduler at each grid.sync()
// and resume when every block of the grid has arrived, on both engines, equal
// element by element; the launch's diagnostics as on fibers. ctest runs these
// under COHORT_WORKERS=1 and 4 too (tests/loops/CMakeLists.txt).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "both_engines.hpp"
#include "cohort/errors.hpp"
#include "cohort/host/engine.hpp"
#include "cohort/host/statistics.hpp"
#include "grid_kernels.hpp"
#include "kernels.hpp"

namespace {

using cohort::host::engine;
using cohort::host::engine_mode;
using cohort::host::set_engine_mode;
using loops_tests::expect_fallback;
using loops_tests::expect_same_on_both;
using loops_tests::random_floats;
using loops_tests::random_ints;

class LoopsGrid : public loops_tests::engine_mode_test {};

TEST_F(LoopsGrid, GridSumRunsOnLoops) {
  EXPECT_EQ(loops_tests::grid_sum_engine().chosen, engine::loops) << loops_tests::grid_sum_engine().reason;
  for (unsigned blocks : {1u, 4u, 37u}) {
    const auto in = random_ints(blocks * 64, 9 + blocks);
    int total = 0;
    for (int v : in) total += v;
    expect_same_on_both<int>([&] { return loops_tests::grid_sum(in, blocks, 64); }, engine::loops);
    EXPECT_EQ(loops_tests::grid_sum(in, blocks, 64), std::vector<int>{total});
  }
}

// One block, fewer blocks than workers, more (every block resident at once
// without an OS thread or a fiber each), blocks of a warp and of 1024 threads.
TEST_F(LoopsGrid, RoundsOfGridBarriersKeepEveryThreadsValuesAndSharedMemory) {
  EXPECT_EQ(loops_tests::grid_rounds_engine().chosen, engine::loops) << loops_tests::grid_rounds_engine().reason;
  struct shape {
    unsigned blocks, block, rounds;
  };
  for (const shape s :
       {shape{1, 64, 3}, shape{2, 32, 1}, shape{13, 96, 4}, shape{48, 32, 2}, shape{3, 1024, 2}, shape{5, 100, 0}}) {
    SCOPED_TRACE(std::to_string(s.blocks) + " blocks of " + std::to_string(s.block) + ", " + std::to_string(s.rounds) +
                 " rounds");
    const auto in = random_floats(s.blocks * s.block, s.blocks * 7 + s.rounds);
    expect_same_on_both<float>([&] { return loops_tests::grid_rounds(in, s.blocks, s.block, s.rounds); },
                               engine::loops);
  }
}

// Regression: a block resumed after a grid barrier copied its uniform values'
// next-region slots (`keep`), which the resumed call had not restored, over
// the values it had restored (`kept`) at the end of the first region that did
// not redefine them; the value read afterwards was another call's stack. Each
// block's value differs here, so even one worker (blocks run one after another
// on one stack) gives another block's value without the fix.
TEST_F(LoopsGrid, EachBlocksUniformValueSurvivesAGridBarrierAndABlockBarrier) {
  EXPECT_EQ(loops_tests::grid_block_values_engine().chosen, engine::loops)
      << loops_tests::grid_block_values_engine().reason;
  for (unsigned blocks : {1u, 3u, 8u}) {
    SCOPED_TRACE(std::to_string(blocks) + " blocks");
    const unsigned block = 40, rounds = 4;
    const std::vector<unsigned> out = loops_tests::grid_block_values(blocks, block, rounds);
    EXPECT_EQ(cohort::host::last_launch_statistics().ran_on, engine::loops);
    for (unsigned b = 0; b < blocks; ++b) {
      unsigned value = b + 1;
      for (unsigned r = 0; r < rounds; ++r, value = value * 1103515245u + 12345u + b)
        for (unsigned t = 0; t < block; ++t)
          ASSERT_EQ(out[(b * rounds + r) * block + t], (value + t) ^ value)
              << "block " << b << ", round " << r << ", thread " << t;
    }
    expect_same_on_both<unsigned>([&] { return loops_tests::grid_block_values(blocks, block, rounds); }, engine::loops);
  }
}

TEST_F(LoopsGrid, ClusterLaunchOfGridBarriersStaysOnFibers) {
  const auto in = random_floats(8 * 64, 31);
  const std::vector<float> unclustered = loops_tests::grid_rounds(in, 8, 64, 2);
  EXPECT_EQ(cohort::host::last_launch_statistics().ran_on, engine::loops);
  EXPECT_EQ(loops_tests::grid_rounds_in_clusters(in, 8, 64, 2, 2), unclustered);
  EXPECT_EQ(cohort::host::last_launch_statistics().ran_on, engine::fibers);
}

TEST_F(LoopsGrid, RoundsByHand) {
  const unsigned blocks = 6, block = 32;
  const auto in = random_floats(blocks * block, 77);
  const std::vector<float> out = loops_tests::grid_rounds(in, blocks, block, 1);
  const unsigned n = blocks * block;
  for (unsigned i = 0; i < n; ++i) {
    const unsigned t = i % block;
    const float v = in[i] + in[(i + 1) % n] * 0.25f;
    const float mirrored = in[i - t + block - 1 - t] * 0.5f;
    ASSERT_EQ(out[i], v + mirrored + (in[i] - 1.0f)) << "element " << i;
  }
}

TEST_F(LoopsGrid, TwoGridBarriersAtTwoCallSites) {
  EXPECT_EQ(loops_tests::grid_normalize_engine().chosen, engine::loops);
  for (unsigned blocks : {1u, 3u, 30u}) {
    const auto in = random_ints(blocks * 128, 100 + blocks);
    expect_same_on_both<int>([&] { return loops_tests::grid_normalize(in, blocks, 128); }, engine::loops);
    int total = 0;
    for (int v : in) total += v;
    const std::vector<int> out = loops_tests::grid_normalize(in, blocks, 128);
    EXPECT_EQ(out.back(), total);
    EXPECT_EQ(out[5], in[5] * 3 - total);
  }
}

// The fiber engine's diagnostics, on both engines.
TEST_F(LoopsGrid, BlockThatLeavesBeforeTheGridBarrier) {
  const std::string line = "grid_kernels.cpp:" + std::to_string(loops_tests::left_barrier_line);
  for (engine_mode mode : {engine_mode::fibers, engine_mode::loops}) {
    set_engine_mode(mode);
    try {
      loops_tests::grid_barrier_left(7, 32, 3);
      ADD_FAILURE() << "no error";
    } catch (const cohort::error& e) {
      EXPECT_EQ(e.kind(), cohort::errc::unreachable_barrier);
      const std::string what = e.what();
      EXPECT_NE(what.find("grid barrier at "), std::string::npos) << what;
      EXPECT_NE(what.find(line), std::string::npos) << what;
      EXPECT_NE(what.find("in kernel `"), std::string::npos) << what;
      EXPECT_NE(what.find("grid_left_kernel"), std::string::npos) << what;
      EXPECT_NE(what.find("can never complete: block (3,0,0) exited after arriving at 0 grid barrier(s); every "
                          "block of a cooperative launch must reach every grid.sync()"),
                std::string::npos)
          << what;
    }
    EXPECT_EQ(cohort::host::last_launch_statistics().ran_on,
              mode == engine_mode::loops ? engine::loops : engine::fibers);
  }
}

TEST_F(LoopsGrid, GridBarrierInALaunchThatIsNotCooperative) {
  std::string messages[2];
  int k = 0;
  for (engine_mode mode : {engine_mode::fibers, engine_mode::loops}) {
    set_engine_mode(mode);
    try {
      loops_tests::grid_barrier_not_cooperative(5, 64);
      ADD_FAILURE() << "no error";
    } catch (const cohort::error& e) {
      EXPECT_EQ(e.kind(), cohort::errc::not_cooperative);
      messages[k] = e.what();
    }
    ++k;
  }
  EXPECT_EQ(messages[0], messages[1]);
  const std::string line = "grid_kernels.cpp:" + std::to_string(loops_tests::not_cooperative_line);
  EXPECT_NE(messages[1].find("grid barrier at "), std::string::npos) << messages[1];
  EXPECT_NE(messages[1].find(line), std::string::npos) << messages[1];
  EXPECT_NE(messages[1].find("block (0,0,0), thread (0,0,0): the kernel was not launched cooperatively"),
            std::string::npos)
      << messages[1];
}

TEST_F(LoopsGrid, GridCollectiveStaysOnFibers) {
  std::vector<int> expected(4 * 32);
  int total = 0;
  for (unsigned r = 0; r < expected.size(); ++r) total += static_cast<int>(r % 7);
  for (int& v : expected) v = total;
  expect_fallback<int>(
      loops_tests::grid_reduce_engine(), "a grid collective", [&] { return loops_tests::grid_reduce(4, 32); }, expected,
      "grid_kernels.cpp:");
}

TEST_F(LoopsGrid, WarpUniformCollectiveWithGridBarrierStaysOnFibers) {
  const unsigned blocks = 3, block = 64, n = blocks * block;
  std::vector<int> expected(n);
  for (unsigned r = 0; r < n; ++r) expected[r] = static_cast<int>((r + block) % n % 5);
  for (unsigned first = 0; first < n; first += block) {
    int warp = 0;
    for (unsigned lane = 0; lane < 32; ++lane) warp += expected[first + lane];
    for (unsigned lane = 0; lane < 32; ++lane) expected[first + lane] = warp;
  }
  expect_fallback<int>(
      loops_tests::grid_warp_sums_engine(),
      "a warp or tile collective in warp-uniform control flow in a kernel with a grid barrier, not lowered yet",
      [&] { return loops_tests::grid_warp_sums(blocks, block); }, expected, "grid_kernels.cpp:");
}

}  // namespace
