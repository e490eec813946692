// Warp-level operations on the loops engine (docs/loops-engine.md, "Warp-level
// operations"): each kernel of warp_kernels.cpp runs on both engines on
// seeded random inputs, in blocks whose last warp is partial and in 2-D and
// 3-D blocks; results must be equal element by element. Misuse fails the
// launch on both with the same error; collectives the pass cannot lower stay
// on fibers and say why.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "both_engines.hpp"
#include "cohort/errors.hpp"
#include "cohort/host/engine.hpp"
#include "warp_kernels.hpp"

namespace {

using cohort::host::engine;
using cohort::host::engine_mode;
using cohort::host::set_engine_mode;
using loops_tests::expect_fallback;
using loops_tests::expect_same_error;
using loops_tests::expect_same_on_both;
using loops_tests::random_floats;
using loops_tests::random_ints;
using warp_tests::block_shape;

// Whole warps, a partial last warp (48, 100, 1000 threads), 2-D and 3-D blocks.
const block_shape shapes[] = {{32}, {48}, {100}, {1000}, {24, 5}, {7, 3, 5}, {64, 2}};

class WarpOnLoops : public loops_tests::engine_mode_test {};

TEST_F(WarpOnLoops, ShflXorButterfly) {
  EXPECT_EQ(warp_tests::butterfly_engine().chosen, engine::loops) << warp_tests::butterfly_engine().reason;
  for (const block_shape& shape : shapes) {
    const auto in = random_floats(3 * shape.threads(), shape.threads());
    expect_same_on_both<float>([&] { return warp_tests::butterfly(in, shape, 3); }, engine::loops);
  }
  // A whole warp: every lane holds the warp's sum, summed in the butterfly's order.
  const auto in = random_ints(64, 5);
  std::vector<float> values(in.begin(), in.end());
  const std::vector<float> out = warp_tests::butterfly(values, {64}, 1);
  for (unsigned lane = 0; lane < 64; ++lane) {
    float expected = 0;
    for (unsigned k = 0; k < 32; ++k) expected += values[lane / 32 * 32 + k];
    ASSERT_EQ(out[lane], expected) << lane;  // small integers: exact in any order
  }
}

TEST_F(WarpOnLoops, ShufflesIdxUpDownXorWithWidths) {
  EXPECT_EQ(warp_tests::shuffles_engine().chosen, engine::loops) << warp_tests::shuffles_engine().reason;
  for (const block_shape& shape : shapes)
    for (int width : {32, 16, 8, 2})
      for (unsigned delta : {1u, 3u, 5u}) {
        const auto in = random_ints(2 * shape.threads(), shape.threads() + width + delta);
        expect_same_on_both<int>(
            [&] { return warp_tests::shuffles(in, static_cast<int>(delta) * 5, delta, width, shape, 2); },
            engine::loops);
      }
}

// The lane arrays (constant masks): every kind and size, per-lane operands
// (any lane, beyond the segment and the warp), partial last warps, 2-D and 3-D blocks.
TEST_F(WarpOnLoops, ShufflesOnTheLaneArraysOfEveryKindAndSize) {
  using warp_tests::shuffled_type;
  EXPECT_EQ(warp_tests::typed_shuffles_engine().chosen, engine::loops) << warp_tests::typed_shuffles_engine().reason;
  unsigned seed = 11;
  for (const block_shape& shape : shapes)
    for (int width : {32, 8, 4})
      for (shuffled_type type : {shuffled_type::i8, shuffled_type::i16, shuffled_type::i32, shuffled_type::f32,
                                 shuffled_type::f64, shuffled_type::i64, shuffled_type::pair, shuffled_type::quad}) {
        auto in = random_ints(2 * 2 * shape.threads(), ++seed);
        for (std::size_t k = 1; k < in.size(); k += 2) in[k] %= 40;  // operands past the segment and the warp
        expect_same_on_both<long long>([&] { return warp_tests::typed_shuffles(type, in, width, shape, 2); },
                                       engine::loops);
      }
}

TEST_F(WarpOnLoops, ShufflesInALoopReadOneRoundAndWriteTheNext) {
  EXPECT_EQ(warp_tests::looped_shuffles_engine().chosen, engine::loops) << warp_tests::looped_shuffles_engine().reason;
  for (const block_shape& shape : shapes) {
    const auto in = random_ints(3 * shape.threads(), shape.threads() + 7);
    expect_same_on_both<long long>([&] { return warp_tests::looped_shuffles(in, 9, shape, 3); }, engine::loops);
  }
}

TEST_F(WarpOnLoops, AMaskNamingEveryLaneOfAShortBlockIsTheWholeWarp) {
  EXPECT_EQ(warp_tests::short_warp_engine().chosen, engine::loops) << warp_tests::short_warp_engine().reason;
  const auto in = random_ints(8 * 3, 8);
  expect_same_on_both<int>([&] { return warp_tests::short_warp(in, 3); }, engine::loops);
  const std::vector<int> out = warp_tests::short_warp(in, 3);
  for (unsigned t = 0; t < in.size(); ++t)  // lane 7's down neighbour is absent: its own value
    ASSERT_EQ(out[t], (t % 8 == 7 ? in[t] : in[t + 1]) + 100 * in[t / 8 * 8 + 7]) << t;
}

TEST_F(WarpOnLoops, VotesBallotReductionsAndMatch) {
  EXPECT_EQ(warp_tests::votes_engine().chosen, engine::loops) << warp_tests::votes_engine().reason;
  for (const block_shape& shape : shapes) {
    const auto in = random_ints(2 * shape.threads(), 3 * shape.threads());
    expect_same_on_both<int>([&] { return warp_tests::votes(in, shape, 2); }, engine::loops);
  }
  // A whole warp of positive values but lane 3: the ballot names all lanes but 3.
  std::vector<int> in(32, 5);
  in[3] = -5;
  EXPECT_EQ(static_cast<unsigned>(warp_tests::votes(in, {32}, 1)[0]), ~(1u << 3));
}

TEST_F(WarpOnLoops, EveryReductionAndVoteOnTheLaneArrays) {
  EXPECT_EQ(warp_tests::reductions_engine().chosen, engine::loops) << warp_tests::reductions_engine().reason;
  for (const block_shape& shape : shapes) {
    const auto in = random_ints(2 * shape.threads(), 13 * shape.threads());
    expect_same_on_both<int>([&] { return warp_tests::reductions(in, shape, 2); }, engine::loops);
  }
  // By hand, a partial warp of 5 lanes (a block of 37): its values folded over those 5 alone.
  std::vector<int> in(37);
  for (unsigned t = 0; t < in.size(); ++t) in[t] = static_cast<int>(t) * 7 - 100;
  const std::vector<int> out = warp_tests::reductions(in, {37}, 1);
  int sum = 0, low = in[32];
  unsigned ballot = 0;
  for (unsigned lane = 0; lane < 5; ++lane) {
    sum += in[32 + lane];
    low = std::min(low, in[32 + lane]);
    if (in[32 + lane] % 7 == 0) ballot |= 1u << lane;
  }
  for (unsigned t = 32; t < 37; ++t) {
    EXPECT_EQ(out[11 * t + 1], sum) << t;
    EXPECT_EQ(out[11 * t + 3], low) << t;
    EXPECT_EQ(static_cast<unsigned>(out[11 * t + 8]), ballot >> 1) << t;
    EXPECT_EQ(out[11 * t + 9], 0) << t;   // no value > 900
    EXPECT_EQ(out[11 * t + 10], 3) << t;  // every value > -900
  }
}

TEST_F(WarpOnLoops, SyncwarpOrdersSharedMemoryExchanges) {
  EXPECT_EQ(warp_tests::syncwarp_exchange_engine().chosen, engine::loops)
      << warp_tests::syncwarp_exchange_engine().reason;
  for (const block_shape& shape : shapes) {
    const auto in = random_ints(2 * shape.threads(), 5 * shape.threads());
    expect_same_on_both<int>([&] { return warp_tests::syncwarp_exchange(in, shape, 2); }, engine::loops);
  }
}

TEST_F(WarpOnLoops, HalfWarpMasksFormTwoGroups) {
  EXPECT_EQ(warp_tests::half_warps_engine().chosen, engine::loops) << warp_tests::half_warps_engine().reason;
  for (const block_shape& shape : shapes) {
    const auto in = random_ints(2 * shape.threads(), 7 * shape.threads());
    expect_same_on_both<int>([&] { return warp_tests::half_warps(in, shape, 2); }, engine::loops);
  }
}

TEST_F(WarpOnLoops, TileCollectivesOfEverySizeAndPartialTiles) {
  // Tiles of 64 and 256 threads are wider than a warp: their members are a span of ranks.
  for (unsigned size : {1u, 2u, 4u, 8u, 16u, 32u, 64u, 256u}) {
    EXPECT_EQ(warp_tests::tiles_engine(size).chosen, engine::loops) << warp_tests::tiles_engine(size).reason;
    for (const block_shape& shape : shapes) {
      const auto in = random_ints(2 * shape.threads(), size * shape.threads());
      expect_same_on_both<int>([&] { return warp_tests::tiles(size, in, shape, 2); }, engine::loops);
    }
  }
}

TEST_F(WarpOnLoops, TileShufflesWithEachMembersOwnOperand) {
  for (unsigned size : {1u, 2u, 4u, 8u, 16u, 32u}) {
    EXPECT_EQ(warp_tests::tile_operands_engine(size).chosen, engine::loops)
        << warp_tests::tile_operands_engine(size).reason;
    for (const block_shape& shape : shapes) {
      const auto in = random_ints(2 * shape.threads(), 17 * size + shape.threads());
      expect_same_on_both<int>([&] { return warp_tests::tile_operands(size, in, shape, 2); }, engine::loops);
    }
  }
  // By hand, in 1-D blocks whose last tile is partial: each member's source by CUDA's rules (a
  // source past the tile's members leaves the member its own value).
  for (const auto [size, threads] : {std::pair{4u, 6u}, std::pair{8u, 37u}, std::pair{32u, 100u}}) {
    const auto in = random_ints(threads, size + threads);
    const std::vector<int> out = warp_tests::tile_operands(size, in, {threads}, 1);
    for (unsigned t = 0; t < threads; ++t) {
      const unsigned base = t / size * size, n = std::min(size, threads - base), r = t - base;
      const unsigned op = static_cast<unsigned>(in[t] + 1000) % (2 * size + 3);
      const unsigned wrapped = op & (size - 1);
      const unsigned sources[] = {wrapped < n ? wrapped : r, op <= r ? r - op : r, r + op < n ? r + op : r,
                                  (r ^ op) < n ? (r ^ op) : r};
      for (unsigned k = 0; k < 4; ++k)
        ASSERT_EQ(out[4 * t + k], in[base + sources[k]]) << "tile " << size << " thread " << t << " op " << k;
    }
  }
}

TEST_F(WarpOnLoops, WarpReductionsAroundABlockBarrier) {
  EXPECT_EQ(warp_tests::block_sum_engine().chosen, engine::loops) << warp_tests::block_sum_engine().reason;
  for (unsigned block : {32u, 48u, 100u, 256u, 1000u, 1024u}) {
    const auto in = random_floats(4 * block, block);
    expect_same_on_both<float>([&] { return warp_tests::block_sum(in, block, 4); }, engine::loops);
  }
}

TEST_F(WarpOnLoops, ALaneOutsideTheMaskFailsAsOnFibers) {
  EXPECT_EQ(warp_tests::misuse_engine().chosen, engine::loops);
  expect_same_error(warp_tests::lane_outside_mask, cohort::errc::invalid_argument, true,
                    "__shfl_sync with mask 0xffff is called by lane 16, which the mask does not name");
}

TEST_F(WarpOnLoops, AVoteReductionOrSyncwarpLeavingALaneOutFailsAsOnFibers) {
  using warp_tests::masked_call;
  const std::pair<masked_call, const char*> calls[] = {{masked_call::ballot, "__ballot_sync"},
                                                       {masked_call::any, "__any_sync"},
                                                       {masked_call::all, "__all_sync"},
                                                       {masked_call::reduce_add, "__reduce_add_sync"},
                                                       {masked_call::reduce_min, "__reduce_min_sync"},
                                                       {masked_call::syncwarp, "__syncwarp"}};
  for (const auto& [call, name] : calls) {
    EXPECT_EQ(warp_tests::combine_outside_mask_engine(call).chosen, engine::loops) << name;
    expect_same_error([call] { warp_tests::combine_outside_mask(call); }, cohort::errc::invalid_argument, true,
                      std::string(name) + " with mask 0xffff is called by lane 16, which the mask does not name");
  }
}

TEST_F(WarpOnLoops, AShuffleSourceOutsideTheMaskFailsAsOnFibers) {
  expect_same_error(warp_tests::shuffle_source_outside, cohort::errc::invalid_argument, true,
                    "reads lane 20, which is not in the shuffle's mask or has exited");
}

TEST_F(WarpOnLoops, ANonUniformTileShuffleDeltaFailsAsOnFibers) {
  expect_same_error(warp_tests::non_uniform_delta, cohort::errc::non_uniform_argument, true, "`shfl_down` at ");
}

TEST_F(WarpOnLoops, LanesWithDifferentMasksFailOnBothEngines) {
  // The fiber engine finds it when lane 1 exits, the loops engine when every lane has arrived.
  expect_same_error(warp_tests::masks_differ, cohort::errc::collective_mismatch, false,
                    "lanes of one warp call `__syncwarp` at ");
}

TEST_F(WarpOnLoops, ACollectiveHalfAWarpCallsStaysOnFibers) {
  const auto in = random_floats(64, 11);
  std::vector<float> expected(in);
  for (unsigned t = 0; t < 64; ++t)
    if (t % 32 < 16) expected[t] = in[t] + in[t ^ 1];
  expect_fallback<float>(
      warp_tests::divergent_shuffle_engine(), "a warp or tile collective in thread-dependent control flow",
      [&] { return warp_tests::divergent_shuffle(in, 64); }, expected, "warp_kernels.cpp:");
}

TEST_F(WarpOnLoops, CoalescedThreadsStaysOnFibers) {
  std::vector<int> expected(40, -1);
  for (unsigned t = 1; t < 40; t += 2) expected[t] = static_cast<int>(t % 32 / 2 + 100 * (t < 32 ? 16 : 4));
  expect_fallback<int>(
      warp_tests::coalesced_odd_lanes_engine(), "coalesced_threads() or __activemask()",
      [&] { return warp_tests::coalesced_odd_lanes(40); }, expected, "warp_kernels.cpp:");
}

}  // namespace
