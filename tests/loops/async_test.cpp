// memcpy_async and split block barriers on the loops engine (docs/loops-engine.md,
// "memcpy_async and split block barriers"): results equal the fiber engine's
// element by element, the engine that ran asserted; the split barrier's
// diagnostics on both engines, its misuse kept on fibers with the reason; and
// memcpy_async's checking mode, which runs such kernels on fibers, its
// diagnostics firing. ctest runs the equal-result tests shuffled too
// (tests/loops/CMakeLists.txt).
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "async_kernels.hpp"
#include "both_engines.hpp"
#include "cohort/errors.hpp"
#include "cohort/host/engine.hpp"
#include "cohort/host/statistics.hpp"
#include "host_support.hpp"

namespace {

using cohort::host::engine;
using cohort::host::engine_mode;
using cohort::host::set_engine_mode;
using cohort_test::scoped_env;
using loops_tests::expect_same_on_both;
using loops_tests::random_floats;
using loops_tests::random_ints;

class LoopsAsync : public loops_tests::engine_mode_test {};

// Blocks of odd sizes, chunks shorter and longer than the block, one chunk and several.
TEST_F(LoopsAsync, DoubleBufferedCopiesOnABlockEqualTheFiberEngines) {
  EXPECT_EQ(loops_tests::double_buffered_engine().chosen, engine::loops)
      << loops_tests::double_buffered_engine().reason;
  struct shape {
    unsigned blocks, block, chunks, chunk;
  };
  for (const shape s : {shape{3, 33, 4, 100}, shape{2, 100, 1, 512}, shape{5, 256, 7, 64}, shape{1, 1024, 3, 510},
                        shape{4, 7, 9, 37}}) {
    SCOPED_TRACE(std::to_string(s.blocks) + " blocks of " + std::to_string(s.block) + ", " + std::to_string(s.chunks) +
                 " chunks of " + std::to_string(s.chunk));
    const auto in = random_floats(s.blocks * s.chunks * s.chunk, s.block * 31 + s.chunks);
    expect_same_on_both<float>([&] { return loops_tests::double_buffered(in, s.blocks, s.block, s.chunks, s.chunk); },
                               engine::loops);
  }
}

TEST_F(LoopsAsync, DoubleBufferedByHand) {
  const unsigned blocks = 2, block = 33, chunks = 3, chunk = 50;
  const auto in = random_floats(blocks * chunks * chunk, 7);
  const std::vector<float> out = loops_tests::double_buffered(in, blocks, block, chunks, chunk);
  EXPECT_EQ(cohort::host::last_launch_statistics().ran_on, engine::loops);
  for (unsigned b = 0; b < blocks; ++b)
    for (unsigned t = 0; t < block; ++t) {
      float sum = 0.0f;
      for (unsigned c = 0; c < chunks; ++c)
        for (unsigned k = t; k < chunk; k += block)
          sum += in[(b * chunks + c) * chunk + k] * static_cast<float>(k % 5 + 1);
      ASSERT_EQ(out[b * block + t], sum) << "block " << b << ", thread " << t;
    }
}

// Tiles of 8 and 32, partial last tiles (blocks of 100, 37, 13).
TEST_F(LoopsAsync, TileCopiesWithWaitPriorEqualTheFiberEngines) {
  for (unsigned tile : {8u, 32u}) {
    EXPECT_EQ(loops_tests::tile_copies_engine(tile).chosen, engine::loops)
        << loops_tests::tile_copies_engine(tile).reason;
    for (unsigned block : {32u, 100u, 37u, 13u, 256u}) {
      SCOPED_TRACE("tiles of " + std::to_string(tile) + " in blocks of " + std::to_string(block));
      const unsigned blocks = 3;
      const auto in = random_ints(blocks * 3 * (block + tile), block + tile);
      expect_same_on_both<int>([&] { return loops_tests::tile_copies(in, blocks, block, tile); }, engine::loops);
      // By hand.
      const std::vector<int> out = loops_tests::tile_copies(in, blocks, block, tile);
      for (unsigned b = 0; b < blocks; ++b)
        for (unsigned t = 0; t < block; ++t) {
          const unsigned base = t / tile * tile, rank = t % tile;
          const int* src = in.data() + b * 3 * (block + tile);
          const int first = src[2 * base + (rank * 3 + 1) % (2 * tile)];
          const int second = src[2 * base + tile + (2 * tile - 1 - rank)];
          ASSERT_EQ(out[b * block + t], first * 7 + second) << "block " << b << ", thread " << t;
        }
    }
  }
}

TEST_F(LoopsAsync, SplitBarrierRoundsEqualTheFiberEngines) {
  EXPECT_EQ(loops_tests::split_rounds_engine().chosen, engine::loops) << loops_tests::split_rounds_engine().reason;
  struct shape {
    unsigned blocks, x, y, rounds;
  };
  for (const shape s : {shape{3, 33, 1, 5}, shape{2, 100, 1, 3}, shape{2, 24, 5, 4}, shape{1, 1024, 1, 2},
                        shape{4, 1, 1, 3}, shape{2, 7, 3, 0}}) {
    SCOPED_TRACE(std::to_string(s.blocks) + " blocks of " + std::to_string(s.x) + "x" + std::to_string(s.y));
    const auto in = random_floats(s.blocks * s.x * s.y, s.x * 3 + s.y);
    expect_same_on_both<float>([&] { return loops_tests::split_rounds(in, s.blocks, s.x, s.y, s.rounds); },
                               engine::loops);
  }
}

TEST_F(LoopsAsync, SplitBarrierRoundsByHand) {
  const unsigned blocks = 2, n = 37, rounds = 3;
  const auto in = random_floats(blocks * n, 11);
  const std::vector<float> out = loops_tests::split_rounds(in, blocks, n, 1, rounds);
  EXPECT_EQ(cohort::host::last_launch_statistics().ran_on, engine::loops);
  for (unsigned b = 0; b < blocks; ++b) {
    std::vector<float> v(in.begin() + b * n, in.begin() + (b + 1) * n);
    for (unsigned r = 0; r < rounds; ++r) {
      std::vector<float> next(n);
      for (unsigned me = 0; me < n; ++me) next[me] = (v[me] * 0.5f + static_cast<float>(r)) + v[(me + r + 1) % n];
      v = next;
    }
    for (unsigned me = 0; me < n; ++me) ASSERT_EQ(out[b * n + me], v[me]) << "block " << b << ", thread " << me;
  }
}

// After a thread-dependent return: a resume point per thread, the call sites checked.
TEST_F(LoopsAsync, SplitBarrierAfterAnEarlyReturnEqualsTheFiberEngines) {
  EXPECT_EQ(loops_tests::split_after_exit_engine().chosen, engine::loops)
      << loops_tests::split_after_exit_engine().reason;
  for (const auto [block, live] : {std::pair{64u, 40u}, std::pair{33u, 33u}, std::pair{100u, 1u}, std::pair{13u, 7u}}) {
    SCOPED_TRACE(std::to_string(live) + " of " + std::to_string(block) + " threads");
    const auto in = random_floats(3 * block, block + live);
    expect_same_on_both<float>([&] { return loops_tests::split_after_exit(in, 3, block, live, 4); }, engine::loops);
  }
}

// The fiber engine's diagnostic on both engines: the arrival's call site against the other barrier's.
TEST_F(LoopsAsync, SplitBarrierAgainstABlockBarrierFailsOnBothEngines) {
  const std::string arrive = "async_kernels.cpp:" + std::to_string(loops_tests::split_arrive_line);
  const std::string sync = "async_kernels.cpp:" + std::to_string(loops_tests::split_sync_line);
  for (engine_mode mode : {engine_mode::fibers, engine_mode::loops}) {
    set_engine_mode(mode);
    try {
      loops_tests::split_against_sync(32);
      ADD_FAILURE() << "no error";
    } catch (const cohort::error& e) {
      EXPECT_EQ(e.kind(), cohort::errc::barrier_mismatch);
      const std::string what = e.what();
      EXPECT_NE(what.find("wait at different block barrier call sites: thread (0,0,0) at"), std::string::npos) << what;
      EXPECT_NE(what.find(arrive), std::string::npos) << what;
      EXPECT_NE(what.find("and thread (16,0,0) at"), std::string::npos) << what;
      EXPECT_NE(what.find(sync), std::string::npos) << what;
    }
    EXPECT_EQ(cohort::host::last_launch_statistics().ran_on,
              mode == engine_mode::loops ? engine::loops : engine::fibers);
  }
}

// Misuse the pass cannot pair: on fibers, whose runtime diagnoses it; COHORT_ENGINE=loops refuses it.
void expect_misuse_on_fibers(const cohort::host::engine_choice& choice, const std::string& reason,
                             const std::function<void()>& launch, const std::string& diagnostic) {
  EXPECT_EQ(choice.chosen, engine::fibers);
  EXPECT_NE(choice.reason.find(reason), std::string::npos) << choice.reason;
  EXPECT_NE(choice.reason.find("async_kernels.cpp:"), std::string::npos) << choice.reason;
  set_engine_mode(engine_mode::automatic);
  try {
    launch();
    ADD_FAILURE() << "no error";
  } catch (const cohort::error& e) {
    EXPECT_EQ(e.kind(), cohort::errc::barrier_mismatch);
    EXPECT_NE(std::string(e.what()).find(diagnostic), std::string::npos) << e.what();
  }
  EXPECT_EQ(cohort::host::last_launch_statistics().ran_on, engine::fibers);
  set_engine_mode(engine_mode::loops);
  try {
    launch();
    ADD_FAILURE() << "COHORT_ENGINE=loops ran a kernel the pass kept on fibers";
  } catch (const cohort::error& e) {
    EXPECT_EQ(e.kind(), cohort::errc::invalid_argument);
    EXPECT_NE(std::string(e.what()).find(reason), std::string::npos) << e.what();
  }
}

TEST_F(LoopsAsync, ATokenWaitedOnTwiceStaysOnFibers) {
  expect_misuse_on_fibers(
      loops_tests::split_token_twice_engine(),
      "a split block barrier whose token does not go from one barrier_arrive to one barrier_wait",
      [] { loops_tests::split_token_twice(32); },
      "barrier_wait on an arrival token already waited on, at the block barrier");
}

TEST_F(LoopsAsync, TwoArrivalsBeforeAWaitStayOnFibers) {
  expect_misuse_on_fibers(
      loops_tests::split_arrives_twice_engine(),
      "a split block barrier with a barrier, a collective or another barrier_arrive between "
      "barrier_arrive and barrier_wait",
      [] { loops_tests::split_arrives_twice(32); }, "thread arrived twice at the block barrier");
}

// The normal mode runs on loops; the checking mode on fibers, saying why, and its diagnostics fire.
TEST_F(LoopsAsync, CopyChecksRunOnFibersAndFire) {
  const auto in = random_ints(256, 5);
  EXPECT_EQ(loops_tests::copy_then_wait_engine().chosen, engine::loops) << loops_tests::copy_then_wait_engine().reason;
  EXPECT_EQ(loops_tests::copy_then_wait(in, false), in);
  EXPECT_EQ(cohort::host::last_launch_statistics().ran_on, engine::loops);
  for (const char* mode : {"memcpy", "memcpy-poison"}) {
    SCOPED_TRACE(mode);
    const scoped_env checks{"COHORT_CHECK", mode};
    EXPECT_EQ(loops_tests::copy_then_wait(in, false), in);
    EXPECT_EQ(cohort::host::last_launch_statistics().ran_on, engine::fibers);
    try {
      loops_tests::copy_then_wait(in, true);
      ADD_FAILURE() << "no error";
    } catch (const cohort::error& e) {
      EXPECT_EQ(e.kind(), cohort::errc::copy_in_flight);
      const std::string what = e.what();
      EXPECT_NE(what.find("the destination of memcpy_async at"), std::string::npos) << what;
      EXPECT_NE(what.find("async_kernels.cpp:" + std::to_string(loops_tests::copy_then_wait_line)), std::string::npos)
          << what;
      EXPECT_NE(what.find("before the wait that covers the copy"), std::string::npos) << what;
    }
    EXPECT_EQ(cohort::host::last_launch_statistics().ran_on, engine::fibers);
    set_engine_mode(engine_mode::loops);
    try {
      loops_tests::copy_then_wait(in, false);
      ADD_FAILURE() << "COHORT_ENGINE=loops ran memcpy_async's checks on loops";
    } catch (const cohort::error& e) {
      EXPECT_EQ(e.kind(), cohort::errc::invalid_argument);
      EXPECT_NE(std::string(e.what()).find("memcpy_async under COHORT_CHECK=memcpy (its checks run on fibers only)"),
                std::string::npos)
          << e.what();
    }
    set_engine_mode(engine_mode::automatic);
  }
}

// What a block function calls in place of a checking call, should a launch ever reach one on loops.
TEST_F(LoopsAsync, ACheckingCallReachedOnLoopsFailsTheLaunch) {
  try {
    loops_tests::unchecked_copy_reached();
    ADD_FAILURE() << "no error";
  } catch (const cohort::error& e) {
    EXPECT_EQ(e.kind(), cohort::errc::invalid_argument);
    const std::string what = e.what();
    EXPECT_NE(what.find("memcpy_async at "), std::string::npos) << what;
    EXPECT_NE(what.find("async_kernels.cpp:"), std::string::npos) << what;
    EXPECT_NE(what.find("reached COHORT_CHECK=memcpy's checks on the loops engine, which does not run them"),
              std::string::npos)
        << what;
  }
}

}  // namespace
