// A soak of the grid barrier: cooperative launches of the largest grid the
// device holds, more blocks than workers, each running grid.sync() round
// after round for COHORT_SOAK_SECONDS (default 5) under the schedule the
// environment names (COHORT_SCHEDULE=shuffle for the measurements). Every
// round each block counts itself in, and after the barrier checks that every
// block has: a block released early, or an arrival lost, is counted. Prints
// the barriers run; docs/measurements/ records the long runs.
#include <gmock/gmock.h>

#include <chrono>
#include <cohort/cohort.hpp>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace cg = cohort;

namespace {

// Two barriers a round: after the first every block must have counted itself
// in; the second keeps the next round's arrivals from the readers.
__global__ void counted_rounds(int rounds, unsigned* arrived, unsigned* early) {
  cg::grid_group grid = cg::this_grid();
  for (int r = 1; r <= rounds; ++r) {
    if (threadIdx.x == 0) atomicAdd(arrived, 1u);
    grid.sync();
    const unsigned want = static_cast<unsigned>(r) * gridDim.x;
    if (atomicAdd(arrived, 0u) != want) atomicAdd(early, 1u);
    grid.sync();
  }
}

double soak_seconds() {
  const char* v = std::getenv("COHORT_SOAK_SECONDS");
  return v ? std::atof(v) : 5.0;
}

TEST(GridBarrierSoak, NoBlockIsReleasedEarlyAndNoArrivalIsLost) {
  const int threads = 64, rounds = 1000;
  const int blocks = cg::max_cooperative_grid(counted_rounds, threads);
  ASSERT_GT(blocks, 1);
  cg::device_buffer<unsigned> arrived(1), early(1);
  unsigned long long launches = 0, wrong = 0, lost = 0;
  const auto start = std::chrono::steady_clock::now();
  double elapsed = 0;
  while (launches == 0 || elapsed < soak_seconds()) {
    arrived.fill(0u);
    early.fill(0u);
    cg::launch_cooperative(counted_rounds, {dim3(blocks), dim3(threads)}, rounds, arrived.data(), early.data());
    ++launches;
    wrong += early.to_host()[0];
    lost += arrived.to_host()[0] != static_cast<unsigned>(rounds * blocks);
    elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  const unsigned long long barriers = launches * 2ull * rounds;
  std::printf(
      "grid barrier soak: %llu launches of %d blocks x %d threads, %llu grid.sync in %.1f s (%.1f us each); "
      "readers that saw a block missing: %llu; launches with an arrival lost: %llu\n",
      launches, blocks, threads, barriers, elapsed, elapsed / static_cast<double>(barriers) * 1e6, wrong, lost);
  EXPECT_EQ(wrong, 0u);
  EXPECT_EQ(lost, 0u);
}

}  // namespace
