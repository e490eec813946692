// Collectives in warp-uniform control flow on the loops engine (docs/loops-engine.md,
// "Collectives in warp-uniform control flow"): each kernel of
// warp_uniform_kernels.cpp runs on both engines on seeded random inputs, in
// blocks of whole warps, with a partial last warp and in 2-D and 3-D blocks;
// results must be equal element by element and the engine the one the proof
// allows for the block's shape. The sums are checked by hand too.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "both_engines.hpp"
#include "cohort/errors.hpp"
#include "cohort/host/engine.hpp"
#include "cohort/host/virtual_device.hpp"
#include "warp_uniform_kernels.hpp"

namespace {

using cohort::host::engine;
using cohort::host::engine_mode;
using cohort::host::set_engine_mode;
using loops_tests::expect_fallback;
using loops_tests::expect_same_on_both;
using loops_tests::random_floats;
using loops_tests::random_ints;
using warp_tests::block_shape;

// Whole warps (96, 160, 1024, 64x2, 32x3x2) and a partial last warp (100).
const block_shape one_row_shapes[] = {{32}, {96}, {100}, {160}, {1024}, {64, 2}, {32, 3, 2}};
// Warps across rows of threadIdx.x: where a proof from threadIdx.x needs fibers.
const block_shape across_rows[] = {{24, 5}, {7, 3, 5}};

class WarpUniform : public loops_tests::engine_mode_test {};

std::vector<float> small_integers(std::size_t n, unsigned seed) {
  const std::vector<int> ints = random_ints(n, seed);
  std::vector<float> values;
  for (int v : ints) values.push_back(static_cast<float>(v % 50));  // sums exact in any order
  return values;
}

TEST_F(WarpUniform, BlogBlockReduction) {
  EXPECT_EQ(warp_uniform_tests::blog_block_sum_engine().chosen, engine::loops)
      << warp_uniform_tests::blog_block_sum_engine().reason;
  for (const block_shape& shape : one_row_shapes) {
    const auto in = random_floats(3 * shape.threads(), shape.threads());
    expect_same_on_both<float>([&] { return warp_uniform_tests::blog_block_sum(in, shape, 3); }, engine::loops);
  }
  // threadIdx.x / 32 is not the warp where warps cross rows: fibers, at run time.
  for (const block_shape& shape : across_rows) {
    const auto in = random_floats(2 * shape.threads(), shape.threads());
    expect_same_on_both<float>([&] { return warp_uniform_tests::blog_block_sum(in, shape, 2); }, engine::fibers);
  }
  // Thread 0 of each block holds the block's sum (whole warps: a lane of a partial
  // warp reading an absent lane gets its own value, on both engines).
  for (unsigned threads : {96u, 160u, 1024u}) {
    const std::vector<float> in = small_integers(2 * threads, threads);
    const std::vector<float> out = warp_uniform_tests::blog_block_sum(in, {threads}, 2);
    EXPECT_EQ(cohort::host::last_launch_statistics().ran_on, engine::loops);
    for (unsigned b = 0; b < 2; ++b) {
      float expected = 0;
      for (unsigned t = 0; t < threads; ++t) expected += in[b * threads + t];
      EXPECT_EQ(out[b * threads], expected) << threads << " threads, block " << b;
    }
  }
}

TEST_F(WarpUniform, FinalWarpOfATreeReductionLikeSamplesKernel6) {
  EXPECT_EQ(warp_uniform_tests::final_warp_sum_engine().chosen, engine::loops)
      << warp_uniform_tests::final_warp_sum_engine().reason;
  for (unsigned threads : {32u, 64u, 96u, 160u, 256u, 1024u}) {
    const auto in = random_floats(2 * 5 * threads, threads);
    expect_same_on_both<float>([&] { return warp_uniform_tests::final_warp_sum(in, threads, 5); }, engine::loops);
  }
  for (unsigned threads : {64u, 256u, 1024u}) {  // powers of two: the block's sum
    const std::vector<float> in = small_integers(2 * 3 * threads, threads + 1);
    const std::vector<float> out = warp_uniform_tests::final_warp_sum(in, threads, 3);
    EXPECT_EQ(cohort::host::last_launch_statistics().ran_on, engine::loops);
    for (unsigned b = 0; b < 3; ++b) {
      float expected = 0;
      for (unsigned t = 0; t < 2 * threads; ++t) expected += in[b * 2 * threads + t];
      EXPECT_EQ(out[b], expected) << threads << " threads, block " << b;
    }
  }
}

TEST_F(WarpUniform, TileLeadersByMetaGroupRankInAnyBlockShape) {
  EXPECT_EQ(warp_uniform_tests::tile_leaders_engine().chosen, engine::loops)
      << warp_uniform_tests::tile_leaders_engine().reason;
  for (const auto& shapes : {std::vector<block_shape>(std::begin(one_row_shapes), std::end(one_row_shapes)),
                             std::vector<block_shape>(std::begin(across_rows), std::end(across_rows))})
    for (const block_shape& shape : shapes) {  // the rank alone proves it: loops in every shape
      const auto in = random_ints(3 * shape.threads(), shape.threads() + 7);
      expect_same_on_both<int>([&] { return warp_uniform_tests::tile_leaders(in, shape, 3); }, engine::loops);
    }
}

TEST_F(WarpUniform, PerWarpLoopsWithShuffles) {
  EXPECT_EQ(warp_uniform_tests::per_warp_rows_engine().chosen, engine::loops)
      << warp_uniform_tests::per_warp_rows_engine().reason;
  for (unsigned threads : {32u, 96u, 100u, 160u, 1024u})
    for (unsigned rows : {1u, 5u, 37u}) {
      const auto in = random_floats(32 * rows, threads + rows);
      expect_same_on_both<float>([&] { return warp_uniform_tests::per_warp_rows(in, rows, threads); }, engine::loops);
    }
  const std::vector<float> in = small_integers(32 * 37, 3);
  const std::vector<float> out = warp_uniform_tests::per_warp_rows(in, 37, 160);
  for (unsigned row = 0; row < 37; ++row) {
    float expected = 0;
    for (unsigned lane = 0; lane < 32; ++lane) expected += in[row * 32 + lane];
    EXPECT_EQ(out[row], expected) << "row " << row;
  }
}

TEST_F(WarpUniform, WarpsOfTheLaunchTakeRowsLikeCsrVectorKernels) {
  EXPECT_EQ(warp_uniform_tests::launch_warp_rows_engine().chosen, engine::loops)
      << warp_uniform_tests::launch_warp_rows_engine().reason;
  const unsigned rows = 301;
  const auto in = random_floats(32 * rows, rows);
  for (const block_shape& shape : {block_shape{32}, block_shape{96}, block_shape{1024}, block_shape{64, 2}})
    expect_same_on_both<float>([&] { return warp_uniform_tests::launch_warp_rows(in, rows, shape, 3); }, engine::loops);
  // blockDim.x not a multiple of 32: the launch's warp index differs within a warp (some lanes
  // leave the loop while others shuffle with them): fibers, which report it, as CUDA leaves it undefined.
  for (const block_shape& shape : {block_shape{100}, block_shape{48, 2}}) {
    try {
      warp_uniform_tests::launch_warp_rows(in, rows, shape, 3);
      ADD_FAILURE() << "lanes shuffled with lanes that had left the loop";
    } catch (const cohort::error& e) {
      EXPECT_NE(std::string(e.what()).find("which is not in the shuffle's mask or has exited"), std::string::npos)
          << e.what();
    }
  }
  const std::vector<float> ints = small_integers(32 * rows, 4);
  const std::vector<float> out = warp_uniform_tests::launch_warp_rows(ints, rows, {96}, 2);
  for (unsigned row = 0; row < rows; ++row) {
    float expected = 0;
    for (unsigned lane = 0; lane < 32; ++lane) expected += ints[row * 32 + lane];
    EXPECT_EQ(out[row], expected) << "row " << row;
  }
  set_engine_mode(engine_mode::loops);
  try {
    warp_uniform_tests::launch_warp_rows(in, rows, {100}, 1);
    ADD_FAILURE() << "COHORT_ENGINE=loops ran a launch the proof does not cover";
  } catch (const cohort::error& e) {
    EXPECT_NE(std::string(e.what()).find("collectives in control flow uniform per warp only where blockDim.x is a "
                                         "multiple of 32, and the block is 100x1x1"),
              std::string::npos)
        << e.what();
  }
}

TEST_F(WarpUniform, CsrVectorSpmvWithASignedWarpIndex) {
  EXPECT_EQ(warp_uniform_tests::csr_vector_engine().chosen, engine::loops)
      << warp_uniform_tests::csr_vector_engine().reason;
  // 200 rows of 0 to 99 entries, small integers: the products' sums are exact.
  const std::vector<int> lengths = random_ints(200, 8), picks = random_ints(200 * 100, 9);
  std::vector<int> row_start{0}, cols;
  std::vector<float> values;
  for (int length : lengths) {
    for (int k = 0; k < (length + 1000) % 100; ++k) {
      cols.push_back((picks[cols.size()] + 1000) % 300);
      values.push_back(static_cast<float>(picks[cols.size() - 1] % 7));
    }
    row_start.push_back(static_cast<int>(cols.size()));
  }
  const std::vector<float> x = small_integers(300, 10);
  for (const block_shape& shape : {block_shape{32}, block_shape{128}, block_shape{1024}, block_shape{64, 3}})
    for (unsigned blocks : {1u, 3u})
      expect_same_on_both<float>(
          [&] { return warp_uniform_tests::csr_vector(row_start, cols, values, x, shape, blocks); }, engine::loops);
  const std::vector<float> y = warp_uniform_tests::csr_vector(row_start, cols, values, x, {96}, 2);
  for (int row = 0; row < 200; ++row) {
    float expected = 0;
    for (int k = row_start[row]; k < row_start[row + 1]; ++k) expected += values[k] * x[cols[k]];
    EXPECT_EQ(y[row], expected) << "row " << row;
  }
  // More than 2^31 threads in x: the int index could be negative; the loops engine refuses before any block runs.
  set_engine_mode(engine_mode::loops);
  try {
    warp_uniform_tests::csr_vector(row_start, cols, values, x, {32}, (1u << 26) + 1);
    ADD_FAILURE() << "COHORT_ENGINE=loops ran a launch the proof does not cover";
  } catch (const cohort::error& e) {
    EXPECT_NE(std::string(e.what()).find("only where the launch's thread index in x fits an int (gridDim.x * "
                                         "blockDim.x at most 2^31), and the launch has 2147483680"),
              std::string::npos)
        << e.what();
  }
}

TEST_F(WarpUniform, UniformValuesKeptAcrossShufflesPerWarp) {
  EXPECT_EQ(warp_uniform_tests::uniform_loop_then_second_warp_engine().chosen, engine::loops)
      << warp_uniform_tests::uniform_loop_then_second_warp_engine().reason;
  for (unsigned threads : {32u, 96u, 100u, 1024u})
    for (unsigned width : {32u, 16u, 4u}) {
      const auto in = random_floats(2 * threads, threads + width);
      expect_same_on_both<float>(
          [&] { return warp_uniform_tests::uniform_loop_then_second_warp(in, width, threads, 2); }, engine::loops);
    }
  // By hand, one block of 64 and width 32: every lane of warp 0 holds its warp's sum.
  const std::vector<float> in = small_integers(64, 9);
  const std::vector<float> out = warp_uniform_tests::uniform_loop_then_second_warp(in, 32, 64, 1);
  float sum = 0;
  for (unsigned t = 0; t < 32; ++t) sum += in[t];
  for (unsigned t = 0; t < 32; ++t) EXPECT_EQ(out[t], sum) << t;
}

TEST_F(WarpUniform, VotesReductionsAndSyncwarpAboveTwoWarps) {
  EXPECT_EQ(warp_uniform_tests::votes_above_two_warps_engine().chosen, engine::loops)
      << warp_uniform_tests::votes_above_two_warps_engine().reason;
  for (const block_shape& shape : one_row_shapes) {
    const auto in = random_ints(2 * shape.threads(), shape.threads() + 11);
    expect_same_on_both<int>([&] { return warp_uniform_tests::votes_above_two_warps(in, shape, 2); }, engine::loops);
  }
  for (const block_shape& shape : across_rows) {
    const auto in = random_ints(2 * shape.threads(), shape.threads() + 11);
    expect_same_on_both<int>([&] { return warp_uniform_tests::votes_above_two_warps(in, shape, 2); }, engine::fibers);
  }
  // By hand, a block of 100: the last warp (4 lanes) reduces over what it has.
  std::vector<int> in(100);
  for (int t = 0; t < 100; ++t) in[t] = t - 40;
  const std::vector<int> out = warp_uniform_tests::votes_above_two_warps(in, {100}, 1);
  for (int t = 0; t < 100; ++t) {
    const int base = t / 32 * 32, lanes = t < 96 ? 32 : 4;
    int sum = 0;
    unsigned voters = 0;
    for (int l = 0; l < lanes; ++l) sum += in[base + l], voters |= (in[base + l] > 0 ? 1u : 0u) << l;
    EXPECT_EQ(out[2 * t], t >= 64 ? sum + static_cast<int>(voters % 1000) : -1) << t;
    EXPECT_EQ(out[2 * t + 1], (t / 32) % 2 == 0 ? in[base + lanes - 1] : -1) << t;
  }
}

// Under COHORT_ENGINE=loops the launch that needs warps in one row of threadIdx.x fails with the reason.
TEST_F(WarpUniform, AcrossRowsTheLoopsEngineRefusesWithTheReason) {
  set_engine_mode(engine_mode::loops);
  try {
    warp_uniform_tests::blog_block_sum(std::vector<float>(120, 1.0f), {24, 5}, 1);
    ADD_FAILURE() << "COHORT_ENGINE=loops ran a launch the proof does not cover";
  } catch (const cohort::error& e) {
    EXPECT_EQ(e.kind(), cohort::errc::invalid_argument);
    EXPECT_NE(std::string(e.what()).find("collectives in control flow uniform per warp only where every warp lies in "
                                         "one row of threadIdx.x (blockDim.x a multiple of 32, or blockDim.y and "
                                         "blockDim.z 1), and the block is 24x5x1"),
              std::string::npos)
        << e.what();
  }
}

// Warps of 64 lanes (a wave64 virtual device): the proof is for 32, so fibers.
TEST_F(WarpUniform, WarpsOf64RunOnFibers) {
  cohort::device_properties wave64 = cohort::host::virtual_device();
  wave64.warp_size = 64;
  cohort::host::configure(wave64);
  const auto in = random_floats(3 * 128, 64);
  set_engine_mode(engine_mode::automatic);
  warp_uniform_tests::tile_leaders(random_ints(128, 1), {128}, 1);
  EXPECT_EQ(cohort::host::last_launch_statistics().ran_on, engine::fibers);
  set_engine_mode(engine_mode::loops);
  try {
    warp_uniform_tests::blog_block_sum(in, {128}, 3);
    ADD_FAILURE() << "COHORT_ENGINE=loops ran warps of 64";
  } catch (const cohort::error& e) {
    EXPECT_NE(std::string(e.what()).find("proven for warps of 32 lanes, and the virtual device's warps have 64"),
              std::string::npos)
        << e.what();
  }
  cohort::host::reset_virtual_device();
}

TEST_F(WarpUniform, ALaneOutsideTheMaskInTheSecondWarpFailsAsOnFibers) {
  EXPECT_EQ(warp_uniform_tests::second_warp_outside_mask_engine().chosen, engine::loops);
  std::string messages[2];
  const engine_mode modes[] = {engine_mode::fibers, engine_mode::loops};
  for (int m = 0; m < 2; ++m) {
    set_engine_mode(modes[m]);
    try {
      warp_uniform_tests::second_warp_outside_mask();
      ADD_FAILURE() << "the launch did not fail";
    } catch (const cohort::error& e) {
      EXPECT_EQ(e.kind(), cohort::errc::invalid_argument) << e.what();
      messages[m] = e.what();
    }
  }
  EXPECT_NE(messages[0].find("__shfl_sync with mask 0xffff is called by lane 16, which the mask does not name"),
            std::string::npos)
      << messages[0];
  EXPECT_NE(messages[0].find("thread (48,0,0)"), std::string::npos) << messages[0];
  EXPECT_EQ(messages[0], messages[1]);
}

TEST_F(WarpUniform, CollectivesThroughTheRecordsStayOnFibers) {
  const auto in = random_ints(64, 2);
  std::vector<int> expected = in;
  int sum = 0;
  for (int t = 0; t < 32; ++t) sum += in[t];
  for (int t = 0; t < 32; ++t) expected[t] = sum;
  expect_fallback<int>(
      warp_uniform_tests::records_in_first_warp_engine(),
      "a warp or tile collective through the fiber engine's records",
      [&] { return warp_uniform_tests::records_in_first_warp(in, 64); }, expected, "warp_uniform_kernels.cpp:");
}

}  // namespace
