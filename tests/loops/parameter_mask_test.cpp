// Warp operations whose mask is a kernel parameter on the loops engine
// (docs/loops-engine.md, "Warp-level operations"): shuffles, votes, a
// reduction, matches and __syncwarp on the block's lane arrays, the mask
// checked once a block. Equal to the fiber engine element by element (the
// engine asserted), by hand for the votes and the reduction, and each misuse
// fails with the fiber engine's message.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "both_engines.hpp"
#include "cohort/host/engine.hpp"
#include "parameter_mask_kernels.hpp"

namespace {

using cohort::host::engine;
using loops_tests::expect_same_error;
using loops_tests::expect_same_on_both;
using loops_tests::random_ints;
using parameter_mask_tests::kOperations;
using parameter_mask_tests::mask_type;

class ParameterMaskOnLoops : public loops_tests::engine_mode_test {};

constexpr mask_type types[] = {mask_type::u32, mask_type::i32, mask_type::u64};

TEST_F(ParameterMaskOnLoops, AFullMaskEqualsFibersInBlocksWithPartialWarps) {
  unsigned seed = 60;
  for (mask_type type : types) {
    ASSERT_EQ(parameter_mask_tests::operations_engine(type).chosen, engine::loops);
    // -1 as an int names every lane; 0xffffffff names a warp of 32.
    const unsigned long long full = type == mask_type::u32 ? 0xffffffffull : ~0ull;
    for (unsigned threads : {32u, 48u, 100u, 1000u}) {
      SCOPED_TRACE(testing::Message() << "mask type " << static_cast<int>(type) << " threads " << threads);
      const std::vector<int> in = random_ints(2 * threads, seed++);
      expect_same_on_both<unsigned long long>(
          [&] { return parameter_mask_tests::operations(type, full, in, threads, 2); }, engine::loops);
    }
  }
  // A block of 8 with the mask 0xff: the whole short warp.
  const std::vector<int> in = random_ints(3 * 8, 7);
  expect_same_on_both<unsigned long long>(
      [&] { return parameter_mask_tests::operations(mask_type::u32, 0xff, in, 8, 3); }, engine::loops);
}

// By hand over a block of 37 (a last warp of 5 lanes): the ballot, any, all and sum of each warp.
TEST_F(ParameterMaskOnLoops, VotesAndSumsAreEachWarps) {
  const std::vector<int> in = random_ints(37, 61);
  const std::vector<unsigned long long> out = parameter_mask_tests::operations(mask_type::u32, 0xffffffff, in, 37, 1);
  for (unsigned t = 0; t < 37; ++t) {
    const unsigned base = t - t % 32, count = t < 32 ? 32 : 5;
    unsigned long long ballot = 0;
    int any = 0, all = 1;
    unsigned sum = 0;
    for (unsigned l = 0; l < count; ++l) {
      ballot |= static_cast<unsigned long long>(in[base + l] > 0) << l;
      any |= in[base + l] > 900;
      all &= in[base + l] > -900;
      sum += static_cast<unsigned>(in[base + l]);
    }
    const unsigned long long* o = &out[kOperations * t];
    EXPECT_EQ(o[2], ballot) << t;
    EXPECT_EQ(o[3], static_cast<unsigned long long>(any)) << t;
    EXPECT_EQ(o[4], static_cast<unsigned long long>(all)) << t;
    EXPECT_EQ(o[5], static_cast<unsigned long long>(static_cast<int>(sum))) << t;
  }
}

TEST_F(ParameterMaskOnLoops, OperationsInWarpUniformControlFlowRunPerWarp) {
  const cohort::host::engine_choice choice = parameter_mask_tests::later_warps_engine();
  ASSERT_EQ(choice.chosen, engine::loops) << choice.reason;
  for (unsigned threads : {64u, 100u}) {
    const std::vector<int> in = random_ints(2 * threads, threads + 1);
    expect_same_on_both<unsigned long long>(
        [&] { return parameter_mask_tests::later_warps(0xffffffffu, in, threads, 2); }, engine::loops);
  }
}

// The first operation (__shfl_xor_sync) fails: the lowest lane outside the mask, on both engines.
TEST_F(ParameterMaskOnLoops, ALaneOutsideTheMaskFailsAsOnFibers) {
  const std::vector<int> in = random_ints(64, 62);
  expect_same_error([&] { parameter_mask_tests::operations(mask_type::u32, 0xffff, in, 64, 1); },
                    cohort::errc::invalid_argument, true,
                    "__shfl_xor_sync with mask 0xffff is called by lane 16, which the mask does not name");
  expect_same_error([&] { parameter_mask_tests::operations(mask_type::u64, 0, in, 64, 1); },
                    cohort::errc::invalid_argument, true,
                    "__shfl_xor_sync with mask 0x0 is called by lane 0, which the mask does not name");
  // In the second warp alone (regions per warp): thread 48.
  expect_same_error([&] { parameter_mask_tests::later_warps(0xffff, in, 64, 1); }, cohort::errc::invalid_argument, true,
                    "__shfl_xor_sync with mask 0xffff is called by lane 16, which the mask does not name");
  cohort::host::set_engine_mode(cohort::host::engine_mode::loops);
  try {
    parameter_mask_tests::later_warps(0xffff, in, 64, 1);
    ADD_FAILURE() << "the launch did not fail";
  } catch (const cohort::error& e) {
    EXPECT_NE(std::string(e.what()).find("thread (48,0,0)"), std::string::npos) << e.what();
  }
}

}  // namespace
