// Cluster barriers on the loops engine (docs/loops-engine.md, "Cluster
// barriers"): kernels whose block functions return to the scheduler at each
// cluster.sync() and resume when every block of the cluster has arrived, on
// both engines, equal element by element; the launch's diagnostic as on
// fibers. ctest runs these under COHORT_WORKERS=1, 2 and 4 and shuffled too
// (tests/loops/CMakeLists.txt).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "both_engines.hpp"
#include "cluster_kernels.hpp"
#include "cohort/errors.hpp"
#include "cohort/host/engine.hpp"
#include "cohort/host/statistics.hpp"

namespace {

using cohort::host::engine;
using cohort::host::engine_mode;
using cohort::host::set_engine_mode;
using loops_tests::expect_fallback;
using loops_tests::expect_same_on_both;
using loops_tests::random_floats;

class LoopsCluster : public loops_tests::engine_mode_test {};

struct shape {
  unsigned grid_x, grid_y, block, cluster, rounds;
};

std::string describe(const shape& s) {
  return std::to_string(s.grid_x) + "x" + std::to_string(s.grid_y) + " blocks of " + std::to_string(s.block) +
         " in clusters of " + std::to_string(s.cluster) + ", " + std::to_string(s.rounds) + " rounds";
}

// Clusters of 2 to 8 blocks, more clusters than workers and fewer, blocks of
// a warp and of 1024 threads, a launch without clusters (a cluster is its
// block: cluster.sync() is its barrier), no round at all.
TEST_F(LoopsCluster, RoundsOfClusterBarriersKeepEveryThreadsValuesAndSharedMemory) {
  EXPECT_EQ(loops_tests::cluster_rounds_engine().chosen, engine::loops) << loops_tests::cluster_rounds_engine().reason;
  for (const shape s : {shape{2, 1, 64, 2, 3}, shape{8, 2, 32, 4, 2}, shape{6, 3, 96, 3, 4}, shape{16, 1, 32, 8, 2},
                        shape{4, 1, 1024, 2, 2}, shape{5, 2, 40, 1, 3}, shape{4, 1, 100, 2, 0}}) {
    SCOPED_TRACE(describe(s));
    const auto in = random_floats(s.grid_x * s.grid_y * s.block, s.grid_x * 7 + s.rounds);
    expect_same_on_both<float>(
        [&] { return loops_tests::cluster_rounds(in, s.grid_x, s.grid_y, s.block, s.cluster, s.rounds); },
        engine::loops);
  }
}

TEST_F(LoopsCluster, RoundsByHand) {
  const unsigned blocks = 6, block = 32, cluster = 3, n = blocks * block;
  const auto in = random_floats(n, 78);
  const std::vector<float> out = loops_tests::cluster_rounds(in, blocks, 1, block, cluster, 1);
  EXPECT_EQ(cohort::host::last_launch_statistics().ran_on, engine::loops);
  // Each thread's value before the rounds: rank 0's blocks add their mirrored thread's scratch.
  const auto start = [&](unsigned j) {
    const unsigned b = j / block, t = j % block;
    return b % cluster == 0 ? in[j] + ((in[b * block + block - 1 - t] - 1.0f) + 1.0f) : in[j];
  };
  for (unsigned i = 0; i < n; ++i) {
    const unsigned b = i / block, t = i % block, rank = b % cluster;
    const unsigned next = (b - rank + (rank + 1) % cluster) * block + t;
    const float v = start(i) + (start(next) * 0.25f + static_cast<float>((b + 1) % 7u));
    const float mirrored = in[b * block + block - 1 - t] * 0.5f;
    const float scratch = rank == 0 ? (in[i] - 1.0f) + 1.0f : in[i] - 1.0f;
    ASSERT_EQ(out[i], v + mirrored + scratch) << "element " << i;
  }
}

// The fiber engine's diagnostic, on both engines.
TEST_F(LoopsCluster, BlockThatLeavesBeforeTheClusterBarrier) {
  const std::string line = "cluster_kernels.cpp:" + std::to_string(loops_tests::cluster_left_line);
  for (engine_mode mode : {engine_mode::fibers, engine_mode::loops}) {
    set_engine_mode(mode);
    try {
      loops_tests::cluster_barrier_left(8, 32, 4, 6);
      ADD_FAILURE() << "no error";
    } catch (const cohort::error& e) {
      EXPECT_EQ(e.kind(), cohort::errc::unreachable_barrier);
      const std::string what = e.what();
      EXPECT_NE(what.find("cluster barrier at "), std::string::npos) << what;
      EXPECT_NE(what.find(line), std::string::npos) << what;
      EXPECT_NE(what.find("in kernel `"), std::string::npos) << what;
      EXPECT_NE(what.find("cluster_left_kernel"), std::string::npos) << what;
      EXPECT_NE(what.find("can never complete: block (6,0,0) of the same cluster exited after arriving at 0 cluster "
                          "barrier(s); every block of a cluster must reach every cluster.sync()"),
                std::string::npos)
          << what;
    }
    EXPECT_EQ(cohort::host::last_launch_statistics().ran_on,
              mode == engine_mode::loops ? engine::loops : engine::fibers);
  }
}

TEST_F(LoopsCluster, DistributedSharedMemoryStaysOnFibers) {
  const unsigned blocks = 8, block = 32, cluster = 4;
  std::vector<int> expected(blocks * block);
  for (unsigned b = 0; b < blocks; ++b)
    for (unsigned t = 0; t < block; ++t)
      expected[b * block + t] = static_cast<int>(b - b % cluster + (b + 1) % cluster) * 3;
  expect_fallback<int>(
      loops_tests::cluster_ring_engine(), "distributed shared memory (map_shared_rank / query_shared_rank)",
      [&] { return loops_tests::cluster_ring(blocks, block, cluster); }, expected, "cluster_kernels.cpp:");
}

}  // namespace
