// The loops engine against the fiber engine: each kernel of kernels.cpp
// (built by clang with the loops pass) runs on both; the results must be
// equal element by element, and the engine that ran must be the one the pass
// chose. Kernels the pass keeps on fibers must say why.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "both_engines.hpp"
#include "cohort/cohort.hpp"
#include "cohort/errors.hpp"
#include "cohort/host/engine.hpp"
#include "cohort/host/statistics.hpp"
#include "host_support.hpp"
#include "kernels.hpp"

void external_scale(float* value) { *value *= 3.0f; }

namespace {

using cohort::host::engine;
using cohort::host::engine_mode;
using cohort::host::set_engine_mode;
using loops_tests::expect_fallback;
using loops_tests::expect_same_on_both;
using loops_tests::random_floats;
using loops_tests::random_ints;

class LoopsEngine : public loops_tests::engine_mode_test {};

TEST_F(LoopsEngine, BarrierFreeSaxpyRunsOnLoops) {
  EXPECT_EQ(loops_tests::saxpy_engine().chosen, engine::loops) << loops_tests::saxpy_engine().reason;
  const auto x = random_floats(1000, 1), y = random_floats(1000, 2);
  expect_same_on_both<float>([&] { return loops_tests::saxpy(1.5f, x, y, 128); }, engine::loops);
  const std::vector<float> out = loops_tests::saxpy(1.5f, x, y, 128);
  for (std::size_t i = 0; i < x.size(); ++i) ASSERT_EQ(out[i], 1.5f * x[i] + y[i]) << i;
}

TEST_F(LoopsEngine, TreeReductionWithBarriersInALoop) {
  EXPECT_EQ(loops_tests::tree_reduce_engine().chosen, engine::loops) << loops_tests::tree_reduce_engine().reason;
  for (unsigned block : {32u, 256u, 1024u}) {
    const auto in = random_floats(block * 6, block);
    expect_same_on_both<float>([&] { return loops_tests::tree_reduce(in, block); }, engine::loops);
  }
}

TEST_F(LoopsEngine, StencilThroughASharedTile) {
  EXPECT_EQ(loops_tests::stencil_engine().chosen, engine::loops);
  const auto in = random_floats(1000, 3);  // a partial last block
  expect_same_on_both<float>([&] { return loops_tests::stencil(in, 96); }, engine::loops);
  const std::vector<float> out = loops_tests::stencil(in, 96);
  EXPECT_EQ(out[500], in[499] + in[500] + in[501]);
}

TEST_F(LoopsEngine, ThreadsThatReturnBeforeABarrierNoLongerCount) {
  EXPECT_EQ(loops_tests::early_exit_engine().chosen, engine::loops);
  const auto in = random_floats(1000, 4);  // 1000 = 7 x 128 + 104: the last block's 24 threads return
  expect_same_on_both<float>([&] { return loops_tests::early_exit(in, 128); }, engine::loops);
  const std::vector<float> out = loops_tests::early_exit(in, 128);
  EXPECT_EQ(out[999], in[999] + in[896]);  // the last live thread's neighbour wraps to its block's first
}

TEST_F(LoopsEngine, ThreeDimensionalBlocksOfOddExtents) {
  EXPECT_EQ(loops_tests::reverse_3d_engine().chosen, engine::loops);
  const auto in = random_ints(33 * 3 * 3 * 4, 5);
  expect_same_on_both<int>([&] { return loops_tests::reverse_3d(in, 33, 3, 3); }, engine::loops);
  const auto small = random_ints(5 * 3 * 2 * 3, 6);
  expect_same_on_both<int>([&] { return loops_tests::reverse_3d(small, 5, 3, 2); }, engine::loops);
}

TEST_F(LoopsEngine, RowsWhereComparisonsHoldThroughoutAndRowsWhereNot) {
  EXPECT_EQ(loops_tests::row_conditions_engine().chosen, engine::loops);
  struct shape {
    unsigned base, limit;
    int lower;
  };
  // Rows all true, all false, and changing midway; an index that wraps within a row (base + k past 2^32 - 1).
  for (const shape c : {shape{0, 300, 100}, shape{0, 1u << 20, -100}, shape{0xffffffffu - 200, 0xffffffffu - 50, 1000},
                        shape{0xffffffffu - 200, 0xffffffffu - 50, -100}, shape{0xffffffffu - 130, 0xffffffffu, 300}}) {
    for (unsigned block : {128u, 96u}) {
      expect_same_on_both<unsigned>([&] { return loops_tests::row_conditions(c.base, c.limit, c.lower, 5, block); },
                                    engine::loops);
      const std::vector<unsigned> out = loops_tests::row_conditions(c.base, c.limit, c.lower, 5, block);
      for (unsigned k = 0; k < out.size(); ++k) {
        const unsigned i = c.base + k;
        const unsigned v = (i < c.limit ? 1u : 0u) + (static_cast<int>(k) - 7 > c.lower ? 2u : 0u);
        ASSERT_EQ(out[k], v * 1000u + (i & 0xffu)) << "k " << k << " base " << c.base;
      }
    }
  }
}

TEST_F(LoopsEngine, ThreadLoopsSplitWhereATestOfTheIndexTurnsFalse) {
  EXPECT_EQ(loops_tests::prefix_tests_engine().chosen, engine::loops);
  struct shape {
    unsigned mode, base, bound;
    int signed_bound;
  };
  // Bounds inside the row, before it, past it; an index wrapping within the row (base near 2^32).
  for (const shape c : {shape{0, 0, 20, 0},
                        shape{0, 100, 20, 0},
                        shape{0, 0, 1000, 0},
                        shape{0, 0xfffffff0u, 0xfffffffau, 0},
                        shape{1, 0, 20, 0},
                        shape{1, 0xfffffff0u, 0xfffffffau, 0},
                        shape{1, 5, 4, 0},
                        shape{2, 0, 0, 9},
                        shape{2, 0, 0, -10},
                        shape{2, 0, 0, 200},
                        shape{3, 0, 20, 0},
                        shape{3, 0xfffffff0u, 0xfffffffau, 0},
                        shape{3, 5, 4, 0},
                        shape{4, 0, 0, 0},
                        shape{4, 3, 0, 0},
                        shape{4, 0xfffffff0u, 0, 0},
                        shape{5, 0, 20, 0},
                        shape{5, 0, 0, 0},
                        shape{5, 0xfffffff0u, 0xfffffffau, 0},
                        shape{6, 0, 0, 0},
                        shape{6, 0xfffffff0u, 0, 0}}) {
    for (const auto [x, y] : {std::pair{32u, 4u}, std::pair{48u, 1u}, std::pair{5u, 3u}}) {
      const auto run = [&] { return loops_tests::prefix_tests(c.mode, c.base, c.bound, c.signed_bound, x, y, 3); };
      expect_same_on_both<unsigned>(run, engine::loops);
      const std::vector<unsigned> out = run();
      const unsigned n = x * y;
      for (unsigned k = 0; k < out.size(); ++k) {
        const unsigned t = k % n, tx = t % x;
        unsigned v = 7;
        if (c.mode == 0 && c.base + tx < c.bound) v = 3 * (n - 1 - t);
        if (c.mode == 1 && c.bound >= c.base + tx) v = 3 * ((t + 1) % n);
        if (c.mode == 2 && static_cast<int>(tx) - 5 <= c.signed_bound) v = 3 * t + 1;
        if (c.mode == 3 && c.base + tx >= c.bound) v = 3 * (n - 1 - t);
        if (c.mode == 4) v = c.base + tx == 0 ? 3 * t + 2 : 3 * ((t + 1) % n);
        if (c.mode == 5 && c.base + tx < c.bound) v = 3 * (n - 1 - t);
        if (c.mode == 5 && tx == 0) v += 100;
        if (c.mode == 6 && c.base + tx != 0) v = 3 * t + 5;
        ASSERT_EQ(out[k], v) << "mode " << c.mode << " base " << c.base << " k " << k << " block " << x << "x" << y;
      }
    }
  }
}

TEST_F(LoopsEngine, BarriersInUniformControlFlowWithUniformValuesAcrossThem) {
  EXPECT_EQ(loops_tests::uniform_rounds_engine().chosen, engine::loops);
  for (bool reverse : {false, true}) {
    const auto in = random_ints(16 * 8 * 5, reverse ? 8 : 9);
    expect_same_on_both<int>([&] { return loops_tests::uniform_rounds(in, 16, 8, 4, reverse); }, engine::loops);
    expect_same_on_both<int>([&] { return loops_tests::uniform_rounds(in, 5, 2, 3, reverse); }, engine::loops);
    expect_same_on_both<int>([&] { return loops_tests::uniform_rounds(in, 1, 1, 2, reverse); }, engine::loops);
  }
  // By hand, one thread: acc = in + in * weight (reverse; its own value), twice; weight 5 -> 15 -> 44.
  const std::vector<int> one = loops_tests::uniform_rounds({2}, 1, 1, 2, true);
  EXPECT_EQ(one[0], (2 + 2 * 5) + (2 + 2 * 5) * 15 + 44);
}

TEST_F(LoopsEngine, LocalArrayLiveAcrossABarrier) {
  EXPECT_EQ(loops_tests::local_array_engine().chosen, engine::loops);
  const auto in = random_floats(256 * 3, 7);
  expect_same_on_both<float>([&] { return loops_tests::local_array(in, 256); }, engine::loops);
}

TEST_F(LoopsEngine, AtomicsInLoopsThatEndByTheirCounters) {
  EXPECT_EQ(loops_tests::atomics_in_loops_engine().chosen, engine::loops)
      << loops_tests::atomics_in_loops_engine().reason;
  const std::vector<int> in = random_ints(1000, 47);
  std::vector<int> expected(16, 0), divisible;
  for (int v : in) {
    ++expected[v & 15];
    if (v % 3 == 0) divisible.push_back(v);
  }
  expected.push_back(*std::max_element(in.begin(), in.end()));
  std::sort(divisible.begin(), divisible.end());
  expected.insert(expected.end(), divisible.begin(), divisible.end());
  EXPECT_EQ(loops_tests::atomics_in_loops(in), expected);
  expect_same_on_both<int>([&] { return loops_tests::atomics_in_loops(in); }, engine::loops);
}

TEST_F(LoopsEngine, LibraryAndClockCallsThatNeverWait) {
  EXPECT_EQ(loops_tests::library_calls_engine().chosen, engine::loops) << loops_tests::library_calls_engine().reason;
  const std::vector<float> in = random_floats(4 * 96, 31);
  const std::vector<float> out = loops_tests::library_calls(in, 96);
  for (unsigned i = 0; i < in.size(); ++i) {
    int exponent = 0;
    frexpf(in[i / 96 * 96 + 95 - i % 96], &exponent);
    ASSERT_EQ(out[i], in[i] + static_cast<float>(exponent)) << i;
  }
  expect_same_on_both<float>([&] { return loops_tests::library_calls(in, 96); }, engine::loops);
}

TEST_F(LoopsEngine, ThreadsPassTheSameBarrierDifferentTimes) {
  EXPECT_EQ(loops_tests::uneven_barriers_engine().chosen, engine::loops);
  expect_same_on_both<int>([] { return loops_tests::uneven_barriers(100); }, engine::loops);
  const std::vector<int> out = loops_tests::uneven_barriers(100);
  EXPECT_EQ(out[5], 2 * 1000 + 5);
}

TEST_F(LoopsEngine, DifferentBarrierCallsFailTheLaunchOnBothEngines) {
  EXPECT_EQ(loops_tests::mismatched_barriers_engine().chosen, engine::loops);
  for (engine_mode mode : {engine_mode::fibers, engine_mode::automatic, engine_mode::loops}) {
    set_engine_mode(mode);
    try {
      loops_tests::mismatched_barrier_loop(64);
      ADD_FAILURE() << "no error";
    } catch (const cohort::error& e) {
      EXPECT_EQ(e.kind(), cohort::errc::barrier_mismatch);
      EXPECT_NE(std::string(e.what()).find("wait at different block barrier call sites"), std::string::npos)
          << e.what();
    }
    try {
      loops_tests::mismatched_barriers(64);
      ADD_FAILURE() << "no error";
    } catch (const cohort::error& e) {
      EXPECT_EQ(e.kind(), cohort::errc::barrier_mismatch);
      EXPECT_NE(std::string(e.what()).find("wait at different block barrier call sites"), std::string::npos)
          << e.what();
      EXPECT_NE(std::string(e.what()).find("kernels.cpp:"), std::string::npos) << e.what();
    }
  }
}

TEST_F(LoopsEngine, ParameterPassedInMemoryAndDynamicSharedMemory) {
  EXPECT_EQ(loops_tests::scaled_reverse_engine().chosen, engine::loops);
  const loops_tests::scales s{{0.5f, 1.5f, -2.0f, 3.0f, 0.25f, 7.0f}, 1000};
  const auto in = random_floats(1024, 13);
  expect_same_on_both<float>([&] { return loops_tests::scaled_reverse(s, in, 128); }, engine::loops);
}

TEST_F(LoopsEngine, EachThreadKeepsItsChangesToAParameterAcrossABarrier) {
  EXPECT_EQ(loops_tests::changed_parameter_engine().chosen, engine::loops);
  const loops_tests::scales s{{0.5f, 1.5f, -2.0f, 3.0f, 0.25f, 7.0f}, 0};
  const auto in = random_floats(256, 22);
  expect_same_on_both<float>([&] { return loops_tests::changed_parameter(s, in, 128); }, engine::loops);
  const std::vector<float> out = loops_tests::changed_parameter(s, in, 128);
  EXPECT_EQ(out[7], in[120] * (1.5f + 7.0f));
}

TEST_F(LoopsEngine, KernelTemplateInstances) {
  EXPECT_EQ(loops_tests::neighbour_sum_engine().chosen, engine::loops);
  const auto ints = random_ints(512, 14);
  expect_same_on_both<int>([&] { return loops_tests::neighbour_sum(ints, 128); }, engine::loops);
  std::vector<double> doubles(512);
  for (std::size_t i = 0; i < doubles.size(); ++i) doubles[i] = ints[i] * 0.125;
  expect_same_on_both<double>([&] { return loops_tests::neighbour_sum(doubles, 64); }, engine::loops);
}

TEST_F(LoopsEngine, TwoDimensionalGridOfTwoDimensionalBlocks) {
  EXPECT_EQ(loops_tests::transpose_tiles_engine().chosen, engine::loops);
  const auto in = random_ints(48 * 24, 15);
  expect_same_on_both<int>([&] { return loops_tests::transpose_tiles(in, 48, 24); }, engine::loops);
  const std::vector<int> out = loops_tests::transpose_tiles(in, 48, 24);
  EXPECT_EQ(out[9 * 48 + 10], in[10 * 48 + 9] + 6000);  // (10, 9) in tile (1, 1) reads (9, 10)
}

TEST_F(LoopsEngine, TiledMatrixProductWithBarriersInALoop) {
  EXPECT_EQ(loops_tests::tiled_matmul_engine().chosen, engine::loops);
  const unsigned n = 37, k = 29, m = 43;  // partial tiles on every side
  const auto a = random_floats(n * k, 23), b = random_floats(k * m, 24);
  expect_same_on_both<float>([&] { return loops_tests::tiled_matmul(a, b, n, k, m); }, engine::loops);
  const std::vector<float> c = loops_tests::tiled_matmul(a, b, n, k, m);
  double expected = 0;
  for (unsigned i = 0; i < k; ++i) expected += double(a[5 * k + i]) * b[i * m + 40];
  EXPECT_NEAR(c[5 * m + 40], expected, 1e-3);
}

TEST_F(LoopsEngine, AKernelInstantiatedAtO2AndAtO0IsLowered) {
  const loops_tests::engine_choice choice = loops_tests::shared_reverse_engine();
  EXPECT_EQ(choice.chosen, engine::loops) << choice.reason;
  const auto in = random_ints(512, 25);
  expect_same_on_both<int>([&] { return loops_tests::shared_reverse(in, 128); }, engine::loops);
  expect_same_on_both<int>([&] { return loops_tests::shared_reverse_unoptimized(in, 128); }, engine::loops);
  EXPECT_EQ(loops_tests::shared_reverse_unoptimized(in, 128)[0], in[127] * 3);
}

TEST_F(LoopsEngine, AHelperNotInlinedReadsThreadIdxAcrossABarrier) {
  EXPECT_EQ(loops_tests::not_inlined_reader_engine().chosen, engine::loops);
  const auto in = random_floats(256 * 2, 16);
  expect_same_on_both<float>([&] { return loops_tests::not_inlined_reader(in, 256); }, engine::loops);
}

TEST_F(LoopsEngine, CooperativeLaunchOfAKernelWithoutGridBarriers) {
  const auto x = random_floats(700, 17), y = random_floats(700, 18);
  expect_same_on_both<float>([&] { return loops_tests::saxpy_cooperative(2.0f, x, y, 64); }, engine::loops);
}

TEST_F(LoopsEngine, ShuffledSchedulesRunOnLoops) {  // in a drawn order: shuffle_test.cpp
  const auto x = random_floats(300, 19), y = random_floats(300, 20);
  std::vector<float> out;
  {
    const cohort_test::scoped_env shuffled("COHORT_SCHEDULE", "shuffle:7");
    out = loops_tests::saxpy(2.0f, x, y, 64);
    EXPECT_EQ(cohort::host::last_launch_statistics().ran_on, engine::loops);
  }
  EXPECT_EQ(out, loops_tests::saxpy(2.0f, x, y, 64));
  EXPECT_EQ(cohort::host::last_launch_statistics().ran_on, engine::loops);
}

TEST_F(LoopsEngine, EngineFibersRunsEveryKernelOnFibers) {
  set_engine_mode(engine_mode::fibers);
  EXPECT_EQ(loops_tests::tree_reduce_engine().chosen, engine::fibers);
  EXPECT_EQ(loops_tests::tree_reduce_engine().reason, "COHORT_ENGINE=fibers");
}

TEST_F(LoopsEngine, CallToAnotherTranslationUnitStaysOnFibers) {
  const auto in = random_floats(32, 10);
  std::vector<float> expected(in);
  for (float& v : expected) v *= 3.0f;
  expect_fallback<float>(
      loops_tests::calls_elsewhere_engine(), "a call to `external_scale(float*)`, defined elsewhere",
      [&] { return loops_tests::calls_elsewhere(in); }, expected);
}

TEST_F(LoopsEngine, IndirectCallStaysOnFibers) {
  const auto in = random_floats(32, 11);
  std::vector<float> expected(32);
  for (unsigned i = 0; i < 32; ++i) expected[i] = i % 2 ? 2 * in[i] : -in[i];
  expect_fallback<float>(
      loops_tests::indirect_call_engine(), "an indirect call", [&] { return loops_tests::indirect_call(in); },
      expected);
}

TEST_F(LoopsEngine, AtomicsOutsideLoopsRunOnLoops) {
  EXPECT_EQ(loops_tests::atomic_count_engine().chosen, engine::loops) << loops_tests::atomic_count_engine().reason;
  expect_same_on_both<int>([] { return std::vector<int>{loops_tests::atomic_count(96)}; }, engine::loops);
  EXPECT_EQ(loops_tests::atomic_count(96), 96);
  EXPECT_EQ(loops_tests::block_sums_atomic_engine().chosen, engine::loops);
  const auto in = random_ints(256 * 5, 26);
  int total = 0;
  for (int v : in) total += v;
  expect_same_on_both<int>([&] { return std::vector<int>{loops_tests::block_sums_atomic(in, 256)}; }, engine::loops);
  EXPECT_EQ(loops_tests::block_sums_atomic(in, 256), total);
}

TEST_F(LoopsEngine, AHistogramsAtomicsInAGridStrideLoopRunOnLoops) {  // the loop ends by its counter: no poll
  const auto in = random_ints(1000, 27);
  std::vector<int> expected(7, 0);
  for (int v : in) ++expected[static_cast<unsigned>(v) % 7];
  EXPECT_EQ(loops_tests::histogram(in, 7), expected);
  expect_same_on_both<int>([&] { return loops_tests::histogram(in, 7); }, engine::loops);
}

TEST_F(LoopsEngine, ASpinWithAFenceStaysOnFibers) {
  expect_fallback<int>(loops_tests::fenced_spin_engine(), "inside a loop", [] { return loops_tests::fenced_spin(64); },
                       {7});
}

TEST_F(LoopsEngine, IrreducibleControlFlowStaysOnFibers) {
  const auto in = random_ints(32, 28);
  std::vector<int> expected(32);
  for (unsigned i = 0; i < 32; ++i) {
    unsigned v = static_cast<unsigned>(in[i]);
    int steps = 0;
    bool skip = v & 1;
    do {
      if (!skip) v += 3, ++steps;
      skip = false;
      v >>= 1;
      ++steps;
    } while (v > 1 && steps < 40);
    expected[i] = static_cast<int>(v) * 100 + steps;
  }
  expect_fallback<int>(
      loops_tests::irreducible_engine(), "irreducible control flow", [&] { return loops_tests::irreducible(in); },
      expected);
}

TEST_F(LoopsEngine, ExceptionHandlingStaysOnFibers) {
  const auto in = random_floats(32, 12);
  std::vector<float> expected(in);
  for (float& v : expected) v = v < 0 ? 0 : v;
  expect_fallback<float>(
      loops_tests::catches_engine(), "exception handling", [&] { return loops_tests::catches(in); }, expected);
}

TEST_F(LoopsEngine, BarrierInAHelperNotInlinedStaysOnFibers) {
  const auto in = random_floats(64, 21);
  const std::vector<float> expected(in.rbegin(), in.rend());
  expect_fallback<float>(
      loops_tests::barrier_in_helper_engine(), "a block barrier inside `(anonymous namespace)::sync_here()`",
      [&] { return loops_tests::barrier_in_helper(in); }, expected);
}

TEST_F(LoopsEngine, ParameterPassedByAddressStaysOnFibers) {
  const loops_tests::engine_choice choice = loops_tests::by_address_engine();
  EXPECT_EQ(choice.chosen, engine::fibers);
  EXPECT_NE(choice.reason.find("a parameter passed by address"), std::string::npos) << choice.reason;
  const std::vector<int> out = loops_tests::by_address(loops_tests::counted(100), 40);
  EXPECT_EQ(cohort::host::last_launch_statistics().ran_on, engine::fibers);
  for (int t = 0; t < 40; ++t) ASSERT_EQ(out[t], 100 + t);
}

__global__ void compiled_by_gxx(int* out) { out[threadIdx.x] = static_cast<int>(threadIdx.x); }

TEST_F(LoopsEngine, KernelsBuiltWithoutThePassRunOnFibers) {
  const cohort::host::engine_choice choice = cohort::host::engine_for(compiled_by_gxx);
  EXPECT_EQ(choice.chosen, engine::fibers);
  EXPECT_EQ(choice.reason, "not compiled by clang with cohort's loops pass");
  cohort::device_buffer<int> out(32);
  cohort::launch(compiled_by_gxx, {dim3(1), dim3(32)}, out.data());
  EXPECT_EQ(cohort::host::last_launch_statistics().ran_on, engine::fibers);
  EXPECT_EQ(out.to_host()[31], 31);
}

}  // namespace
