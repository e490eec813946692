// __match_any_sync, __match_all_sync and tiles' match_any and match_all on the
// loops engine (docs/loops-engine.md, "Warp-level operations"): with a constant
// mask, and on tiles of 32 or fewer, values of up to 16 bytes on the block's
// lane arrays, wider ones through the records. Every value size, blocks with
// partial last warps and tiles, 2-D and 3-D blocks, warp-uniform control flow,
// shuffled schedules, warps of 64 lanes: equal to the fiber engine element by
// element (the engine asserted), and to masks computed here; each misuse fails
// with the fiber engine's message.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "both_engines.hpp"
#include "cohort/host/engine.hpp"
#include "cohort/host/virtual_device.hpp"
#include "host_support.hpp"
#include "match_kernels.hpp"

namespace {

using cohort::host::engine;
using loops_tests::expect_same_error;
using loops_tests::expect_same_on_both;
using loops_tests::random_ints;
using match_tests::value_type;
using masks = std::vector<unsigned long long>;

struct block_shape {
  unsigned x, y, z;
};
// Whole warps, partial last warps (48, 100, 1000, 24×5, 7×3×5), 2-D and 3-D blocks.
constexpr block_shape shapes[] = {{32, 1, 1}, {48, 1, 1}, {100, 1, 1}, {1000, 1, 1}, {24, 5, 1}, {7, 3, 5}, {64, 2, 1}};
constexpr unsigned tile_sizes[] = {1, 2, 4, 8, 16, 32, 64};
constexpr unsigned tile_block_threads[] = {32, 37, 100, 257};

class MatchOnLoops : public loops_tests::engine_mode_test {};

TEST_F(MatchOnLoops, WarpMatchesOfEveryValueSizeEqualFibersInEveryBlockShape) {
  unsigned seed = 1;
  for (value_type type : match_tests::value_types) {
    const cohort::host::engine_choice choice = match_tests::warp_matches_engine(type);
    ASSERT_EQ(choice.chosen, engine::loops) << choice.reason;
    for (const block_shape& s : shapes) {
      SCOPED_TRACE(testing::Message() << "type " << static_cast<int>(type) << " block " << s.x << "x" << s.y << "x"
                                      << s.z);
      const std::vector<int> in = random_ints(2 * s.x * s.y * s.z, seed++);
      expect_same_on_both<unsigned long long>([&] { return match_tests::warp_matches(type, in, s.x, s.y, s.z, 2); },
                                              engine::loops);
    }
  }
}

// Blocks of 8 and 5 threads with the mask 0xff: the whole short warp (lanes the block does not have excused).
TEST_F(MatchOnLoops, AShortWarpsMaskNamesTheLanesItHas) {
  for (value_type type : {value_type::i32, value_type::f64, value_type::bytes12, value_type::bytes24}) {
    ASSERT_EQ(match_tests::warp_matches_engine(type, true).chosen, engine::loops);
    for (unsigned threads : {8u, 5u}) {
      const std::vector<int> in = random_ints(3 * threads, threads + static_cast<unsigned>(type));
      expect_same_on_both<unsigned long long>(
          [&] { return match_tests::warp_matches(type, in, threads, 1, 1, 3, true); }, engine::loops);
    }
  }
}

// By hand over a block of 37 (its last warp has 5 lanes): each lane's mask of the lanes with its value's low
// bits; match_all's mask and predicate; the block index's (every lane's the same).
TEST_F(MatchOnLoops, WarpMatchesAreTheLanesWithTheSameBytes) {
  for (value_type type : {value_type::i32, value_type::i64, value_type::bytes16}) {
    const std::vector<int> in = random_ints(2 * 37, 40 + static_cast<unsigned>(type));
    const masks out = match_tests::warp_matches(type, in, 37, 1, 1, 2);
    for (unsigned i = 0; i < 2 * 37; ++i) {
      const unsigned t = i % 37, base = i - t % 32, count = t < 32 ? 32 : 5;
      unsigned long long same = 0, whole = 0;
      bool all = true;
      for (unsigned l = 0; l < count; ++l) {
        if ((in[base + l] & 3) == (in[i] & 3)) same |= 1ull << l;
        if (in[base + l] == in[i]) whole |= 1ull << l;
        all = all && (in[base + l] & 3) == (in[base] & 3);
      }
      const unsigned long long lanes = (1ull << count) - 1;
      const unsigned long long* o = &out[match_tests::kWarpMatches * i];
      SCOPED_TRACE(testing::Message() << "type " << static_cast<int>(type) << " element " << i);
      EXPECT_EQ(o[0], same);
      EXPECT_EQ(o[1], all ? lanes : 0);
      EXPECT_EQ(o[2], all ? 1u : 0u);
      EXPECT_EQ(o[3], lanes);
      EXPECT_EQ(o[4], 1u);
      EXPECT_EQ(o[5], whole);
    }
  }
}

// A float's 0 is -0.0f in some lanes and +0.0f in others (make<float>): the bytes differ, so the values do not match.
TEST_F(MatchOnLoops, MinusZeroAndZeroDoNotMatch) {
  std::vector<int> in(32);
  for (unsigned l = 0; l < 32; ++l) in[l] = static_cast<int>(l % 2);  // low bits 0 (-0.0f) and 1 (+0.0f)
  const masks out = match_tests::warp_matches(value_type::f32, in, 32, 1, 1, 1);
  for (unsigned l = 0; l < 32; ++l) {
    EXPECT_EQ(out[match_tests::kWarpMatches * l], l % 2 ? 0xaaaaaaaaull : 0x55555555ull) << l;
    EXPECT_EQ(out[match_tests::kWarpMatches * l + 2], 0u) << l;
  }
}

TEST_F(MatchOnLoops, TileMatchesOfEveryValueSizeEqualFibersOnPartialTiles) {
  unsigned seed = 300;
  for (value_type type : match_tests::value_types)
    for (unsigned size : tile_sizes) {
      const cohort::host::engine_choice choice = match_tests::tile_matches_engine(type, size);
      ASSERT_EQ(choice.chosen, engine::loops) << choice.reason;
      for (unsigned threads : tile_block_threads) {
        SCOPED_TRACE(testing::Message() << "type " << static_cast<int>(type) << " tile " << size << " threads "
                                        << threads);
        const std::vector<int> in = random_ints(2 * threads, seed++);
        expect_same_on_both<unsigned long long>([&] { return match_tests::tile_matches(type, size, in, threads, 2); },
                                                engine::loops);
      }
    }
}

// By hand, tiles of 8 and 32 in a block of 37 (the last tile of 8 has 5 members, of 32 has 5): bit r for rank r.
TEST_F(MatchOnLoops, TileMatchesAreTheMembersWithTheSameBytes) {
  for (unsigned size : {8u, 32u}) {
    const std::vector<int> in = random_ints(37, size);
    const masks out = match_tests::tile_matches(value_type::i32, size, in, 37, 1);
    for (unsigned t = 0; t < 37; ++t) {
      const unsigned base = t - t % size, count = base + size <= 37 ? size : 37 - base;
      unsigned long long same = 0;
      bool all = true;
      for (unsigned r = 0; r < count; ++r) {
        if ((in[base + r] & 3) == (in[t] & 3)) same |= 1ull << r;
        all = all && (in[base + r] & 3) == (in[base] & 3);
      }
      const unsigned long long members = (1ull << count) - 1;
      const unsigned long long* o = &out[match_tests::kTileMatches * t];
      SCOPED_TRACE(testing::Message() << "tile " << size << " thread " << t);
      EXPECT_EQ(o[0], same);
      EXPECT_EQ(o[1], all ? members : 0);
      EXPECT_EQ(o[2], all ? 1u : 0u);
      EXPECT_EQ(o[3], members);
      EXPECT_EQ(o[4], 1u);
    }
  }
}

TEST_F(MatchOnLoops, ShuffledSchedulesGiveTheSameResults) {
  const cohort_test::scoped_env shuffled("COHORT_SCHEDULE", "shuffle:20261130");
  for (value_type type : {value_type::i32, value_type::bytes12}) {
    const std::vector<int> in = random_ints(3 * 100, 7 + static_cast<unsigned>(type));
    expect_same_on_both<unsigned long long>([&] { return match_tests::warp_matches(type, in, 100, 1, 1, 3); },
                                            engine::loops);
    expect_same_on_both<unsigned long long>([&] { return match_tests::tile_matches(type, 8, in, 100, 3); },
                                            engine::loops);
  }
  const std::vector<int> in = random_ints(2 * 100, 8);
  expect_same_on_both<unsigned long long>([&] { return match_tests::later_warp_matches(in, 100, 2); }, engine::loops);
}

// A tile of 32 or fewer is consecutive ranks on warps of any width: its matches run on loops there too.
TEST_F(MatchOnLoops, WarpsOf64MatchTheSameTiles) {
  cohort::device_properties wave64 = cohort::host::virtual_device();
  wave64.warp_size = 64;
  cohort::host::configure(wave64);
  for (unsigned size : {16u, 32u, 64u}) {
    const std::vector<int> in = random_ints(2 * 100, size + 3);
    expect_same_on_both<unsigned long long>(
        [&] { return match_tests::tile_matches(value_type::f64, size, in, 100, 2); }, engine::loops);
  }
  cohort::host::reset_virtual_device();
}

// Under `threadIdx.x >= 32`: regions per warp, the first warp writes 0.
TEST_F(MatchOnLoops, MatchesInWarpUniformControlFlowRunPerWarp) {
  const cohort::host::engine_choice choice = match_tests::later_warp_matches_engine();
  ASSERT_EQ(choice.chosen, engine::loops) << choice.reason;
  for (unsigned threads : {64u, 96u, 100u}) {
    const std::vector<int> in = random_ints(2 * threads, threads);
    expect_same_on_both<unsigned long long>([&] { return match_tests::later_warp_matches(in, threads, 2); },
                                            engine::loops);
    const masks out = match_tests::later_warp_matches(in, threads, 2);
    for (unsigned i = 0; i < 2 * threads; ++i) {
      const unsigned t = i % threads, warp = i - t % 32, tile = i - t % 16;
      const unsigned lanes = t - t % 32 + 32 <= threads ? 32 : threads % 32;
      const unsigned members = t - t % 16 + 16 <= threads ? 16 : threads % 16;
      unsigned long long any = 0, tile_any = 0;
      bool all = true;
      for (unsigned l = 0; l < lanes; ++l) {
        if ((in[warp + l] & 3) == (in[i] & 3)) any |= 1ull << l;
        all = all && (in[warp + l] & 1) == (in[warp] & 1);
      }
      for (unsigned r = 0; r < members; ++r)
        if ((in[tile + r] & 3) == (in[i] & 3)) tile_any |= 1ull << r;
      const unsigned long long* o = &out[match_tests::kLaterWarpMatches * i];
      SCOPED_TRACE(testing::Message() << "threads " << threads << " element " << i);
      EXPECT_EQ(o[0], t < 32 ? 0 : any);
      EXPECT_EQ(o[1], t < 32 ? 0 : all ? ((1ull << lanes) - 1) | 1ull << 48 : 0);
      EXPECT_EQ(o[2], t < 32 ? 0 : tile_any);
    }
  }
}

TEST_F(MatchOnLoops, ALaneOutsideTheMaskFailsAsOnFibers) {
  for (bool all : {false, true}) {
    const std::string name = all ? "__match_all_sync" : "__match_any_sync";
    EXPECT_EQ(match_tests::match_outside_mask_engine(all, false).chosen, engine::loops) << name;
    expect_same_error([all] { match_tests::match_outside_mask(all, false); }, cohort::errc::invalid_argument, true,
                      name + " with mask 0xffff is called by lane 16, which the mask does not name");
  }
}

// Only the second warp calls it (regions per warp): thread 48 is the first outside the mask, on both engines.
TEST_F(MatchOnLoops, ALaneOutsideTheMaskInTheSecondWarpFailsAsOnFibers) {
  for (bool all : {false, true}) {
    const std::string name = all ? "__match_all_sync" : "__match_any_sync";
    EXPECT_EQ(match_tests::match_outside_mask_engine(all, true).chosen, engine::loops) << name;
    expect_same_error([all] { match_tests::match_outside_mask(all, true); }, cohort::errc::invalid_argument, true,
                      name + " with mask 0xffff is called by lane 16, which the mask does not name");
    cohort::host::set_engine_mode(cohort::host::engine_mode::loops);
    try {
      match_tests::match_outside_mask(all, true);
      ADD_FAILURE() << "the launch did not fail";
    } catch (const cohort::error& e) {
      EXPECT_NE(std::string(e.what()).find("thread (48,0,0)"), std::string::npos) << e.what();
    }
  }
}

// A 32-bit mask on warps of 64 lanes leaves lane 32 out.
TEST_F(MatchOnLoops, AThirtyTwoBitMaskOnWarpsOf64FailsAsOnFibers) {
  cohort::device_properties wave64 = cohort::host::virtual_device();
  wave64.warp_size = 64;
  cohort::host::configure(wave64);
  expect_same_error(match_tests::match_narrow_mask_on_wide_warps, cohort::errc::invalid_argument, true,
                    "__match_any_sync with mask 0xffffffff is called by lane 32, which the mask does not name");
  cohort::host::reset_virtual_device();
}

}  // namespace
