// Multi-grid barriers on the loops engine (docs/loops-engine.md, "Multi-grid
// barriers"): a multi-device launch's grids run in one set of phases, a
// block function returning at each grid.sync() and multi_grid.sync(), on both
// engines equal element by element; the launch's diagnostics as on fibers.
// ctest runs these under COHORT_WORKERS=1 and 4 and shuffled too
// (tests/loops/CMakeLists.txt).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "both_engines.hpp"
#include "cohort/errors.hpp"
#include "cohort/host/engine.hpp"
#include "cohort/host/statistics.hpp"
#include "host_support.hpp"
#include "multi_grid_kernels.hpp"

namespace {

using cohort::host::engine;
using cohort::host::engine_mode;
using cohort::host::set_engine_mode;
using loops_tests::expect_same_on_both;

class LoopsMultiGrid : public loops_tests::engine_mode_test {
 protected:
  cohort_test::scoped_env devices_{"COHORT_DEVICE_COUNT", "4"};
};

std::vector<unsigned> random_unsigned(std::size_t n, unsigned seed) {
  std::vector<unsigned> v;
  for (const int x : loops_tests::random_ints(n, seed)) v.push_back(static_cast<unsigned>(x));
  return v;
}

// The reduction's rounds, by hand: every grid's sum is the launch's total.
std::vector<unsigned> reduce_by_hand(std::vector<unsigned> v, unsigned block, unsigned rounds) {
  for (unsigned r = 0; r < rounds; ++r) {
    unsigned total = 0;
    for (const unsigned x : v) total += x;
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = v[i] * 3 + total % 1000 + static_cast<unsigned>(i % block);
  }
  return v;
}

// 2 to 4 devices, odd block counts, blocks of a warp to 256 threads, no round to three.
TEST_F(LoopsMultiGrid, ReductionAcrossDevicesEqualsTheFiberEngines) {
  EXPECT_EQ(loops_tests::multi_grid_reduce_engine().chosen, engine::loops)
      << loops_tests::multi_grid_reduce_engine().reason;
  struct shape {
    unsigned devices, blocks, block, rounds;
  };
  for (const shape s : {shape{2, 1, 32, 2}, shape{2, 3, 100, 3}, shape{3, 5, 64, 2}, shape{4, 7, 32, 1},
                        shape{4, 3, 256, 3}, shape{3, 1, 96, 0}}) {
    SCOPED_TRACE(std::to_string(s.devices) + " devices, " + std::to_string(s.blocks) + " blocks of " +
                 std::to_string(s.block) + ", " + std::to_string(s.rounds) + " rounds");
    const auto in = random_unsigned(s.devices * s.blocks * s.block, s.devices * 31 + s.blocks);
    expect_same_on_both<unsigned>(
        [&] { return loops_tests::multi_grid_reduce(in, s.devices, s.blocks, s.block, s.rounds); }, engine::loops);
    EXPECT_EQ(loops_tests::multi_grid_reduce(in, s.devices, s.blocks, s.block, s.rounds),
              reduce_by_hand(in, s.block, s.rounds));
    const cohort::host::launch_statistics last = cohort::host::last_launch_statistics();
    EXPECT_EQ(last.ran_on, engine::loops);
    EXPECT_EQ(last.blocks, s.devices * s.blocks);  // every grid's
  }
}

// The fiber engine's diagnostics, on both engines.
TEST_F(LoopsMultiGrid, BlockThatLeavesBeforeAMultiGridBarrier) {
  const std::string line = "multi_grid_kernels.cpp:" + std::to_string(loops_tests::multi_grid_left_line);
  for (engine_mode mode : {engine_mode::fibers, engine_mode::loops}) {
    set_engine_mode(mode);
    try {
      loops_tests::multi_grid_barrier_left(3, 3, 32, 1, 1);
      ADD_FAILURE() << "no error";
    } catch (const cohort::error& e) {
      EXPECT_EQ(e.kind(), cohort::errc::unreachable_barrier);
      const std::string what = e.what();
      EXPECT_NE(what.find("multi-grid barrier at "), std::string::npos) << what;
      EXPECT_NE(what.find(line), std::string::npos) << what;
      EXPECT_NE(what.find("multi_grid_left_kernel"), std::string::npos) << what;
      EXPECT_NE(what.find("can never complete: block 1 of grid 1 (device 1) exited after arriving at 1 multi-grid "
                          "barrier(s); every block of every grid of a multi-device launch must reach every "
                          "multi_grid.sync()"),
                std::string::npos)
          << what;
    }
    EXPECT_EQ(cohort::host::last_launch_statistics().ran_on,
              mode == engine_mode::loops ? engine::loops : engine::fibers);
  }
  // On loops, the waiting block named is the launch's first: grid 0's block 0.
  try {
    loops_tests::multi_grid_barrier_left(3, 3, 32, 1, 1);
    ADD_FAILURE() << "no error";
  } catch (const cohort::error& e) {
    EXPECT_NE(std::string(e.what()).find("`, block (0,0,0), thread (0,0,0) (grid 0, device 0) can never complete"),
              std::string::npos)
        << e.what();
  }
}

TEST_F(LoopsMultiGrid, BlockThatLeavesBeforeAGridBarrierOfAMultiDeviceLaunch) {
  const std::string line = "multi_grid_kernels.cpp:" + std::to_string(loops_tests::multi_grid_grid_left_line);
  std::string messages[2];
  int k = 0;
  for (engine_mode mode : {engine_mode::fibers, engine_mode::loops}) {
    set_engine_mode(mode);
    try {
      loops_tests::multi_grid_grid_barrier_left(2, 5, 64, 2);
      ADD_FAILURE() << "no error";
    } catch (const cohort::error& e) {
      EXPECT_EQ(e.kind(), cohort::errc::unreachable_barrier);
      messages[k] = e.what();
      EXPECT_NE(messages[k].find("grid barrier at "), std::string::npos) << messages[k];
      EXPECT_NE(messages[k].find(line), std::string::npos) << messages[k];
      EXPECT_NE(messages[k].find("can never complete: block (2,0,0) exited after arriving at 0 grid barrier(s); "
                                 "every block of a cooperative launch must reach every grid.sync()"),
                std::string::npos)
          << messages[k];
    }
    ++k;
  }
}

TEST_F(LoopsMultiGrid, MultiGridBarrierOutsideAMultiDeviceLaunch) {
  const std::string line = "multi_grid_kernels.cpp:" + std::to_string(loops_tests::multi_grid_cooperative_line);
  for (const bool cooperative : {true, false}) {
    SCOPED_TRACE(cooperative ? "cooperative" : "not cooperative");
    std::string messages[2];
    int k = 0;
    for (engine_mode mode : {engine_mode::fibers, engine_mode::loops}) {
      set_engine_mode(mode);
      try {
        if (cooperative)
          loops_tests::multi_grid_barrier_cooperative(1, 64);  // one block: the first to fail on fibers
        else
          loops_tests::multi_grid_barrier_not_cooperative(4, 64);
        ADD_FAILURE() << "no error";
      } catch (const cohort::error& e) {
        EXPECT_EQ(e.kind(), cohort::errc::not_cooperative);
        messages[k] = e.what();
      }
      EXPECT_EQ(cohort::host::last_launch_statistics().ran_on,
                mode == engine_mode::loops ? engine::loops : engine::fibers);
      ++k;
    }
    EXPECT_EQ(messages[0], messages[1]);
    EXPECT_NE(messages[1].find("multi-grid barrier at "), std::string::npos) << messages[1];
    EXPECT_NE(messages[1].find(line), std::string::npos) << messages[1];
    EXPECT_NE(messages[1].find("block (0,0,0), thread (0,0,0): the kernel was not launched with "
                               "cohort::launch_cooperative_multi_device"),
              std::string::npos)
        << messages[1];
  }
}

// On fibers the blocks would wait for each other for ever; on loops, no block
// can go on after the phase, and the launch fails.
TEST_F(LoopsMultiGrid, BlocksOfAGridAtAGridAndAMultiGridBarrier) {
  set_engine_mode(engine_mode::loops);
  try {
    loops_tests::multi_grid_levels_crossed(2, 3, 32);
    ADD_FAILURE() << "no error";
  } catch (const cohort::error& e) {
    EXPECT_EQ(e.kind(), cohort::errc::barrier_mismatch);
    const std::string what = e.what(), at = "multi_grid_kernels.cpp:";
    for (const std::string& part : std::vector<std::string>{
             std::string("multi_grid_crossed_kernel(int*)` wait at barriers of different levels, each until the other "
                         "completes: block (0,0,0) at the grid barrier at "),
             at + std::to_string(loops_tests::multi_grid_crossed_grid_line) + ":",
             ", block (1,0,0) at the multi-grid barrier at ",
             at + std::to_string(loops_tests::multi_grid_crossed_line) + ":",
             "; every block of a grid must reach its grid.sync() and multi_grid.sync() calls in the same order"})
      EXPECT_NE(what.find(part), std::string::npos) << part << "\n" << what;
  }
  EXPECT_EQ(cohort::host::last_launch_statistics().ran_on, engine::loops);
}

// What stays on fibers, with its reason.
TEST_F(LoopsMultiGrid, MultiDeviceLaunchWithClustersStaysOnFibers) {
  const auto in = random_unsigned(2 * 4 * 32, 5);
  const std::vector<unsigned> unclustered = loops_tests::multi_grid_reduce(in, 2, 4, 32, 2);
  EXPECT_EQ(cohort::host::last_launch_statistics().ran_on, engine::loops);
  EXPECT_EQ(loops_tests::multi_grid_reduce_in_clusters(in, 2, 4, 32, 2, 2), unclustered);
  EXPECT_EQ(cohort::host::last_launch_statistics().ran_on, engine::fibers);
  set_engine_mode(engine_mode::loops);
  try {
    loops_tests::multi_grid_reduce_in_clusters(in, 2, 4, 32, 2, 2);
    ADD_FAILURE() << "COHORT_ENGINE=loops ran a multi-device launch with clusters";
  } catch (const cohort::error& e) {
    EXPECT_EQ(e.kind(), cohort::errc::invalid_argument);
    EXPECT_NE(std::string(e.what()).find("a multi-device launch with clusters (not on the loops engine yet)"),
              std::string::npos)
        << e.what();
  }
}

// multi_grid_group::thread_rank() and num_threads() (an inline sum of the grid's first thread and the
// thread's rank in the grid, and a runtime read): on loops, in blocks of one and two rows.
TEST_F(LoopsMultiGrid, ThreadRanksRunOnLoops) {
  EXPECT_EQ(loops_tests::multi_grid_thread_ranks_engine().chosen, engine::loops)
      << loops_tests::multi_grid_thread_ranks_engine().reason;
  for (const dim3 block : {dim3(32), dim3(20, 3)}) {
    const unsigned devices = 3, blocks = 5, threads = devices * blocks * block.x * block.y;
    expect_same_on_both<unsigned long long>(
        [&] { return loops_tests::multi_grid_thread_ranks(devices, blocks, block); }, engine::loops);
    const std::vector<unsigned long long> out = loops_tests::multi_grid_thread_ranks(devices, blocks, block);
    for (unsigned long long r = 0; r < threads; ++r) ASSERT_EQ(out[r], r * 3 + threads) << "thread " << r;
  }
}

TEST_F(LoopsMultiGrid, MultiGridCollectiveStaysOnFibers) {
  const unsigned devices = 2, blocks = 3, block = 32;
  loops_tests::expect_fallback<int>(
      loops_tests::multi_grid_count_engine(), "a grid collective or a split grid barrier",
      [&] { return loops_tests::multi_grid_count(devices, blocks, block); },
      std::vector<int>(devices * blocks * block, static_cast<int>(devices * blocks * block)),
      "multi_grid_kernels.cpp:");
}

}  // namespace
