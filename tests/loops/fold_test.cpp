// Tiles' cg::reduce, scans and votes on the loops engine (docs/loops-engine.md,
// "Warp-level operations"): on tiles of 32 or fewer with a stateless operator
// (and their votes) on the block's lane arrays, with an operator that holds state (and on tiles
// of 64) through the records. Every operator, five value types, blocks whose
// last tile is partial: equal to the fiber engine element by element, and to
// a fold in rank order computed here (cohort's order, docs/collectives.md);
// under shuffled schedules and on warps of 64 lanes too.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <random>
#include <vector>

#include "both_engines.hpp"
#include "cohort/host/engine.hpp"
#include "cohort/host/statistics.hpp"
#include "cohort/host/virtual_device.hpp"
#include "fold_kernels.hpp"
#include "host_support.hpp"

namespace {

using cohort::host::engine;
using fold_tests::kFolds;
using fold_tests::value_type;
using loops_tests::expect_same_on_both;

constexpr value_type types[] = {value_type::i32, value_type::u32, value_type::i64, value_type::f32, value_type::f64};
constexpr unsigned sizes[] = {1, 2, 4, 8, 16, 32, 64};
// Whole tiles, and blocks whose last tile (and last warp) is partial.
constexpr unsigned block_threads[] = {32, 37, 100, 257};

// Integers in [-1000, 1000] for the integer types (non-negative for u32), halves for the others.
std::vector<double> random_values(value_type type, std::size_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_int_distribution<int> d(type == value_type::u32 ? 0 : -1000, 1000);
  std::vector<double> v(n);
  const bool fractional = type == value_type::f32 || type == value_type::f64;
  for (double& x : v) x = fractional ? d(gen) / 7.0 : d(gen);
  if (type == value_type::f32)
    for (double& x : v) x = static_cast<float>(x);
  return v;
}

class FoldsOnLoops : public loops_tests::engine_mode_test {};

TEST_F(FoldsOnLoops, EveryOperatorAndTypeEqualsFibersOnPartialTiles) {
  unsigned seed = 1;
  for (value_type type : types)
    for (unsigned size : sizes) {
      const cohort::host::engine_choice choice = fold_tests::folds_engine(type, size);
      ASSERT_EQ(choice.chosen, engine::loops) << choice.reason;
      for (unsigned threads : block_threads) {
        const std::vector<double> in = random_values(type, 2 * threads, seed++);
        SCOPED_TRACE(testing::Message() << "type " << static_cast<int>(type) << " tile " << size << " threads "
                                        << threads);
        expect_same_on_both<double>([&] { return fold_tests::folds(type, size, in, threads, 2); }, engine::loops);
      }
    }
}

// cohort's order, ((v0 op v1) op v2) ..., over each tile's members (the
// block's last tile what exists of it); an exclusive scan's rank 0 gets the
// operator's identity (T{} for one cohort does not know).
TEST_F(FoldsOnLoops, IntegersFoldInRankOrderOverEachTile) {
  constexpr unsigned threads = 100, size = 32;
  const std::vector<double> in = random_values(value_type::i32, threads, 77);
  const std::vector<double> out = fold_tests::folds(value_type::i32, size, in, threads, 1);
  ASSERT_EQ(cohort::host::last_launch_statistics().ran_on, engine::loops);
  using op = long long (*)(long long, long long);
  const op ops[] = {
      [](long long a, long long b) { return a + b; },         [](long long a, long long b) { return b < a ? b : a; },
      [](long long a, long long b) { return a < b ? b : a; }, [](long long a, long long b) { return a - b; },
      [](long long a, long long b) { return a + b; },         [](long long a, long long b) { return a & b; }};
  const long long identities[] = {0, std::numeric_limits<int>::max(), std::numeric_limits<int>::lowest(), 0, 0, -1};
  for (unsigned base = 0; base < threads; base += size) {
    const unsigned count = threads - base < size ? threads - base : size;
    for (unsigned k = 0; k < 6; ++k) {
      long long acc = static_cast<long long>(in[base]);
      std::vector<long long> inclusive{acc}, exclusive{identities[k]};
      for (unsigned r = 1; r < count; ++r) {
        exclusive.push_back(acc);
        acc = ops[k](acc, static_cast<long long>(in[base + r]));
        inclusive.push_back(acc);
      }
      for (unsigned r = 0; r < count; ++r) {
        const double* o = &out[kFolds * (base + r) + 3 * k];
        ASSERT_EQ(o[0], acc) << "operator " << k << " thread " << base + r;
        ASSERT_EQ(o[1], inclusive[r]) << "operator " << k << " thread " << base + r;
        ASSERT_EQ(o[2], exclusive[r]) << "operator " << k << " thread " << base + r;
      }
    }
  }
}

TEST_F(FoldsOnLoops, ShuffledSchedulesGiveTheSameResults) {
  const cohort_test::scoped_env shuffled("COHORT_SCHEDULE", "shuffle:20261130");
  for (value_type type : {value_type::i32, value_type::f32})
    for (unsigned size : {4u, 32u}) {
      const std::vector<double> in = random_values(type, 3 * 100, size);
      expect_same_on_both<double>([&] { return fold_tests::folds(type, size, in, 100, 3); }, engine::loops);
    }
  const std::vector<int> in = loops_tests::random_ints(3 * 100, 11);
  expect_same_on_both<int>([&] { return fold_tests::votes(8, in, 100, 3); }, engine::loops);
}

// A tile of 32 or fewer is consecutive ranks on warps of any width: the whole-block folds run on loops there too.
TEST_F(FoldsOnLoops, WarpsOf64FoldTheSameTiles) {
  cohort::device_properties wave64 = cohort::host::virtual_device();
  wave64.warp_size = 64;
  cohort::host::configure(wave64);
  for (unsigned size : {16u, 32u, 64u}) {
    const std::vector<double> in = random_values(value_type::i32, 2 * 100, size + 5);
    expect_same_on_both<double>([&] { return fold_tests::folds(value_type::i32, size, in, 100, 2); }, engine::loops);
    const std::vector<int> predicates = loops_tests::random_ints(2 * 100, size + 6);
    expect_same_on_both<int>([&] { return fold_tests::votes(size, predicates, 100, 2); }, engine::loops);
  }
  cohort::host::reset_virtual_device();
}

TEST_F(FoldsOnLoops, TileVotesEqualFibersAndCountWhatExistsOfTheTile) {
  unsigned seed = 500;
  for (unsigned size : sizes) {
    const cohort::host::engine_choice choice = fold_tests::votes_engine(size);
    ASSERT_EQ(choice.chosen, engine::loops) << choice.reason;
    for (unsigned threads : block_threads) {
      const std::vector<int> in = loops_tests::random_ints(2 * threads, seed++);
      SCOPED_TRACE(testing::Message() << "tile " << size << " threads " << threads);
      expect_same_on_both<int>([&] { return fold_tests::votes(size, in, threads, 2); }, engine::loops);
    }
  }
  // By hand, a block of 37 (its last tile of 32 has 5 members): bit r for member r, any and all over the members.
  const std::vector<int> in = loops_tests::random_ints(37, 9);
  const std::vector<int> out = fold_tests::votes(32, in, 37, 1);
  for (unsigned t = 0; t < 37; ++t) {
    const unsigned base = t - t % 32, count = base == 0 ? 32 : 5;
    unsigned ballot = 0;
    for (unsigned r = 0; r < count; ++r) ballot |= static_cast<unsigned>(in[base + r] > 0) << r;
    EXPECT_EQ(out[fold_tests::kVotes * t], ballot != 0) << t;
    EXPECT_EQ(out[fold_tests::kVotes * t + 1], ballot == (count == 32 ? ~0u : (1u << count) - 1)) << t;
    EXPECT_EQ(static_cast<unsigned>(out[fold_tests::kVotes * t + 2]), ballot) << t;
  }
}

// A 3-byte value's register takes 4 bytes, which the lanes' fold would not
// stride by: the records, and the same sums on both engines (and by hand).
TEST_F(FoldsOnLoops, AThreeByteValueFoldsThroughTheRecords) {
  const std::vector<int> in = loops_tests::random_ints(2 * 37, 3);
  expect_same_on_both<int>([&] { return fold_tests::three_bytes(in, 37, 2); }, engine::loops);
  const std::vector<int> out = fold_tests::three_bytes(in, 37, 2);
  for (unsigned i = 0; i < 2 * 37; ++i) {
    const unsigned t = i % 37, base = i - t % 8, end = std::min(base + 8, i - t + 37);
    for (unsigned k = 0; k < 3; ++k) {
      unsigned sum = 0, prefix = 0;
      for (unsigned j = base; j < end; ++j) sum += static_cast<unsigned char>(in[j] >> (3 * k));
      for (unsigned j = base; j <= i; ++j) prefix += static_cast<unsigned char>(in[j] >> (3 * k));
      EXPECT_EQ(out[6 * i + k], static_cast<int>(sum % 256)) << i;
      EXPECT_EQ(out[6 * i + 3 + k], static_cast<int>(prefix % 256)) << i;
    }
  }
}

// In warp-uniform control flow (`threadIdx.x < 64`) on the lane arrays: regions per warp.
TEST_F(FoldsOnLoops, TileFoldsInWarpUniformControlFlowRunPerWarp) {
  const cohort::host::engine_choice choice = fold_tests::first_warps_engine();
  ASSERT_EQ(choice.chosen, engine::loops) << choice.reason;
  const std::vector<int> in = loops_tests::random_ints(2 * 96, 5);
  expect_same_on_both<int>([&] { return fold_tests::first_warps(in, 96, 2); }, engine::loops);
  const std::vector<int> out = fold_tests::first_warps(in, 96, 2);
  for (unsigned i = 0; i < 2 * 96; ++i) {
    const unsigned t = i % 96, base = i - i % 32;
    int sum = 0, prefix = 0;
    for (unsigned j = base; j < base + 32; ++j) sum += in[j];
    for (unsigned j = base; j <= i; ++j) prefix += in[j];
    EXPECT_EQ(out[2 * i], t < 64 ? sum : -1) << i;
    EXPECT_EQ(out[2 * i + 1], t < 64 ? prefix : -1) << i;
  }
}

}  // namespace
