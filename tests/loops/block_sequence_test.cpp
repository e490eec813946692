// A barrier-free kernel's block function runs the worker's blocks one after
// another in one call (cohort_loops_next_block, docs/loops-engine.md "The
// block function"): each block reads its own index, and a failure in a block
// after the first names that block, on both engines; a later launch runs whole.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "block_sequence_kernels.hpp"
#include "both_engines.hpp"
#include "cohort/host/engine.hpp"
#include "cohort/host/statistics.hpp"

namespace {

using cohort::host::engine;
using cohort::host::engine_mode;
using cohort::host::set_engine_mode;

class BlockSequence : public loops_tests::engine_mode_test {};

constexpr engine_mode both[] = {engine_mode::automatic, engine_mode::fibers};

engine expected_engine(engine_mode mode) { return mode == engine_mode::fibers ? engine::fibers : engine::loops; }

TEST_F(BlockSequence, EveryBlockReadsItsOwnIndex) {
  ASSERT_EQ(block_sequence_tests::block_indices_engine().chosen, engine::loops)
      << block_sequence_tests::block_indices_engine().reason;
  const dim3 grid(7, 3, 2), block(5, 2, 1);
  for (engine_mode mode : both) {
    set_engine_mode(mode);
    const block_sequence_tests::indices got = block_sequence_tests::block_indices(grid, block);
    EXPECT_EQ(cohort::host::last_launch_statistics().ran_on, expected_engine(mode));
    EXPECT_EQ(cohort::host::last_launch_statistics().blocks, 42u);
    unsigned at = 0;
    for (unsigned z = 0; z < grid.z; ++z)
      for (unsigned y = 0; y < grid.y; ++y)
        for (unsigned x = 0; x < grid.x; ++x)
          for (unsigned t = 0; t < block.x * block.y; ++t, ++at) {
            ASSERT_EQ(got.block_codes[at], x + 100 * y + 10000 * z) << "block " << x << "," << y << "," << z;
            ASSERT_EQ(got.global_x[at], x * block.x + t % block.x) << "block " << x << "," << y << "," << z;
          }
  }
}

TEST_F(BlockSequence, AFailedCheckInALaterBlockNamesThatBlockAndThread) {
  ASSERT_EQ(block_sequence_tests::misaligned_atomic_engine().chosen, engine::loops)
      << block_sequence_tests::misaligned_atomic_engine().reason;
  const dim3 grid(6, 2), block(32);
  for (engine_mode mode : both) {
    set_engine_mode(mode);
    const std::string failure =
        block_sequence_tests::misaligned_atomic_failure(grid, block, uint3{4, 1, 0}, uint3{3, 0, 0});
    EXPECT_EQ(cohort::host::last_launch_statistics().ran_on, expected_engine(mode));
    EXPECT_NE(failure.find("misaligned atomic: atomicAdd at "), std::string::npos) << "[" << failure << "]";
    EXPECT_NE(failure.find("`, block (4,1,0), thread (3,0,0) on address "), std::string::npos) << failure;
    const std::vector<unsigned> whole = block_sequence_tests::no_misaligned_atomic(grid, block);
    for (unsigned i = 0; i < whole.size(); ++i) ASSERT_EQ(whole[i], (i / block.x) % grid.x * block.x + i % block.x);
  }
}

// assert() in a kernel does not keep it on fibers: a failed one fails the launch on loops as on fibers.
TEST_F(BlockSequence, AFailedAssertInALaterBlockNamesThatBlockAndThread) {
  ASSERT_EQ(block_sequence_tests::assertion_engine().chosen, engine::loops)
      << block_sequence_tests::assertion_engine().reason;
  for (engine_mode mode : both) {
    set_engine_mode(mode);
    const std::string failure =
        block_sequence_tests::failed_assertion(dim3(5, 3), dim3(8, 4), uint3{3, 2, 0}, uint3{5, 1, 0});
    EXPECT_EQ(cohort::host::last_launch_statistics().ran_on, expected_engine(mode));
    EXPECT_NE(failure.find("assertion `!fails && \"the chosen thread\"` failed in kernel `"), std::string::npos)
        << "[" << failure << "]";
    EXPECT_NE(failure.find("`, block (3,2,0), thread (5,1,0), at "), std::string::npos) << failure;
    EXPECT_NE(failure.find("block_sequence_kernels.cpp:"), std::string::npos) << failure;
  }
}

TEST_F(BlockSequence, AFaultInALaterBlockNamesThatBlock) {
  ASSERT_EQ(block_sequence_tests::fault_engine().chosen, engine::loops) << block_sequence_tests::fault_engine().reason;
  for (engine_mode mode : both) {
    set_engine_mode(mode);
    const std::string failure = block_sequence_tests::fault(dim3(9), dim3(16), uint3{6, 0, 0});
    EXPECT_EQ(cohort::host::last_launch_statistics().ran_on, expected_engine(mode));
    EXPECT_NE(failure.find("invalid memory access at 0 in kernel `"), std::string::npos) << "[" << failure << "]";
    EXPECT_NE(failure.find("`, block (6,0,0), thread ("), std::string::npos) << failure;
  }
}

}  // namespace
