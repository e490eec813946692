// Shuffled schedules on the loops engine (COHORT_SCHEDULE=shuffle): each
// region's thread loop runs the block's threads in an order drawn per block
// from the schedule's seed. The order differs from the ranks' and between
// blocks and seeds, is the same for the same seed, and race-free kernels give
// the same results as in rank order.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <vector>

#include "both_engines.hpp"
#include "cohort/host/engine.hpp"
#include "cohort/host/settings.hpp"
#include "cohort/host/statistics.hpp"
#include "kernels.hpp"
#include "order_kernels.hpp"
#include "warp_kernels.hpp"

namespace {

using cohort::host::engine;
using order_tests::shape;

void use_schedule(const char* schedule) {
  if (schedule)
    ::setenv("COHORT_SCHEDULE", schedule, 1);
  else
    ::unsetenv("COHORT_SCHEDULE");
  cohort::host::reload_settings();  // the settings are read once
}

class ShuffledLoops : public ::testing::Test {
 protected:
  void TearDown() override { use_schedule(nullptr); }
};

constexpr unsigned blocks = 4, x = 24, y = 5, threads = x * y;

std::vector<unsigned> block_of(const std::vector<unsigned>& order, unsigned b) {
  return {order.begin() + b * threads, order.begin() + (b + 1) * threads};
}

std::vector<unsigned> recorded(shape kind) {
  const std::vector<unsigned> order = order_tests::arrival_order(kind, blocks, x, y);
  EXPECT_EQ(cohort::host::last_launch_statistics().ran_on, engine::loops);
  return order;
}

TEST_F(ShuffledLoops, ThreadsRunInAnOrderDrawnPerBlockFromTheSeed) {
  for (shape kind : {shape::barrier_free, shape::uniform_barrier, shape::divergent_barrier}) {
    SCOPED_TRACE(static_cast<int>(kind));
    EXPECT_EQ(order_tests::arrival_order_engine(kind).chosen, engine::loops)
        << order_tests::arrival_order_engine(kind).reason;
    // In rank order: the ranks that take a ticket, ascending, then the untouched entries.
    std::vector<unsigned> ranks;
    for (unsigned r = 0; r < threads; ++r)
      if (kind != shape::divergent_barrier || r % 3 != 0) ranks.push_back(r);
    std::vector<unsigned> expected(ranks);
    expected.resize(threads, 0xffffffffu);
    const std::vector<unsigned> in_order = recorded(kind);
    for (unsigned b = 0; b < blocks; ++b) ASSERT_EQ(block_of(in_order, b), expected) << "block " << b;

    use_schedule("shuffle:7");
    const std::vector<unsigned> drawn = recorded(kind);
    for (unsigned b = 0; b < blocks; ++b) {
      std::vector<unsigned> took = block_of(drawn, b);
      EXPECT_NE(took, expected) << "block " << b << " ran in rank order";
      std::sort(took.begin(), took.end());
      EXPECT_EQ(took,
                [&] {
                  std::vector<unsigned> sorted(expected);
                  std::sort(sorted.begin(), sorted.end());
                  return sorted;
                }())
          << "block " << b << ": not a permutation of its threads";
    }
    EXPECT_NE(block_of(drawn, 0), block_of(drawn, 1)) << "blocks share an order";
    EXPECT_EQ(recorded(kind), drawn) << "the same seed drew another order";
    use_schedule("shuffle:8");
    EXPECT_NE(recorded(kind), drawn) << "another seed drew the same order";
    use_schedule(nullptr);
  }
}

TEST_F(ShuffledLoops, RaceFreeKernelsGiveTheSameResults) {
  const auto floats = loops_tests::random_floats(1000, 31), more = loops_tests::random_floats(1000, 32);
  const auto ints = loops_tests::random_ints(2000, 33);
  const auto run_all = [&] {
    std::vector<std::vector<float>> f;
    f.push_back(loops_tests::saxpy(1.5f, floats, more, 100));
    f.push_back(loops_tests::tree_reduce(std::vector<float>(floats.begin(), floats.begin() + 512), 256));
    f.push_back(loops_tests::stencil(floats, 96));
    f.push_back(warp_tests::butterfly(floats, {100}, 10));
    f.push_back(warp_tests::block_sum(floats, 250, 4));
    EXPECT_EQ(cohort::host::last_launch_statistics().ran_on, engine::loops);
    std::vector<std::vector<int>> i;
    i.push_back(loops_tests::uneven_barriers(100));
    i.push_back(warp_tests::tiles(8, ints, {24, 5}, 4));
    i.push_back(warp_tests::votes(ints, {100}, 4));
    EXPECT_EQ(cohort::host::last_launch_statistics().ran_on, engine::loops);
    return std::make_pair(f, i);
  };
  const auto in_order = run_all();
  use_schedule("shuffle:3");
  const auto shuffled = run_all();
  EXPECT_EQ(shuffled.first, in_order.first);
  EXPECT_EQ(shuffled.second, in_order.second);
}

}  // namespace
