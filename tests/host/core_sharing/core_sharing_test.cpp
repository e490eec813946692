// Cooperative and cluster launches on fewer cores than blocks: ctest runs this
// binary with COHORT_WORKERS at 1 and 2 (read once per process). Every block
// has an OS thread, but at most COHORT_WORKERS of them run at a time, and a
// block waiting for others (at grid.sync, at a cluster barrier, spinning on
// another block's flag) lets the others run: the grids complete with the
// right results and the diagnostics of barriers no block can complete fire.
// Each core keeps to a CPU of its own while a block holds it, and every
// thread gets its CPUs back when its block ends.
#include <gmock/gmock.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cohort/cohort.hpp>
#include <cstdlib>
#include <set>
#include <thread>
#include <vector>

#if defined(__linux__)
#include <sched.h>
#endif

#include "host_support.hpp"
#include "test_support.hpp"

namespace cg = cohort;
using ::testing::HasSubstr;

namespace {

unsigned workers() {
  const char* v = std::getenv("COHORT_WORKERS");
  return v ? static_cast<unsigned>(std::atoi(v)) : 1u;
}

// How many blocks are between two grid barriers at once, and the most seen.
std::atomic<int> running{0}, most_running{0};

void count_running_block() {
  const int now = running.fetch_add(1) + 1;
  for (int seen = most_running.load(); now > seen && !most_running.compare_exchange_weak(seen, now);) {
  }
  // Long enough for the OS to run every block thread that could run.
  std::this_thread::sleep_for(std::chrono::microseconds(200));
  running.fetch_sub(1);
}

// Each round, every block adds its right neighbour's value of the last round:
// a block that ran ahead of a grid barrier would read a value not yet written.
__global__ void neighbour_rounds(int rounds, int* values) {
  const cg::grid_group grid = cg::this_grid();
  const unsigned blocks = gridDim.x, b = blockIdx.x;
  int* const current = values;
  int* const next = values + blocks;
  for (int r = 0; r < rounds; ++r) {
    if (threadIdx.x == 0) {
      count_running_block();
      next[b] = current[b] + current[(b + 1) % blocks];
    }
    grid.sync();
    if (threadIdx.x == 0) current[b] = next[b];
    grid.sync();
  }
}

TEST(CoreSharing, ACooperativeGridOfManyBlocksRunsOnTheWorkersAlone) {
  const unsigned blocks = 24;
  const int rounds = 5;
  std::vector<int> start(2 * blocks, 0);
  for (unsigned b = 0; b < blocks; ++b) start[b] = static_cast<int>(cohort_test::mix(b) % 100);
  std::vector<int> expected(start.begin(), start.begin() + blocks);
  for (int r = 0; r < rounds; ++r) {
    std::vector<int> next(blocks);
    for (unsigned b = 0; b < blocks; ++b) next[b] = expected[b] + expected[(b + 1) % blocks];
    expected = next;
  }
  cg::device_buffer<int> values(start);
  most_running = 0;
  cg::launch_cooperative(neighbour_rounds, {dim3(blocks), dim3(64)}, rounds, values.data());
  const std::vector<int> got = values.to_host();
  EXPECT_EQ(std::vector<int>(got.begin(), got.begin() + blocks), expected);
  EXPECT_GE(most_running.load(), 1);
  EXPECT_LE(most_running.load(), static_cast<int>(workers()));
}

// The last block raises a flag the first waits for, with no barrier between:
// on a GPU the blocks of a cooperative launch are co-resident, so this ends;
// here the spinning block lends its core at every yield.
__global__ void first_waits_for_last(int* flag, int* out) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0) {
    while (atomicAdd(flag, 0) == 0) {
    }
    out[0] = 1;
  } else if (blockIdx.x == gridDim.x - 1) {
    atomicExch(flag, 1);
  }
}

TEST(CoreSharing, ABlockSpinningOnAnotherLetsItRun) {
  cg::device_buffer<int> flag(std::vector<int>{0}), out(std::vector<int>{0});
  cg::launch_cooperative(first_waits_for_last, {dim3(16), dim3(32)}, flag.data(), out.data());
  EXPECT_EQ(out.to_host()[0], 1);
}

// Block 0 leaves before the grid barrier the others wait at.
__global__ void first_block_leaves(int* out) {
  if (blockIdx.x == 0) return;
  cg::this_grid().sync();
  out[blockIdx.x] = 1;
}

TEST(CoreSharing, AGridBarrierABlockLeftIsStillAnError) {
  cg::device_buffer<int> out(12);
  const cg::error e =
      cohort_test::launch_error([&] { cg::launch_cooperative(first_block_leaves, {dim3(12), dim3(32)}, out.data()); });
  EXPECT_EQ(e.kind(), cg::errc::unreachable_barrier);
  EXPECT_THAT(e.what(), HasSubstr("can never complete: block (0,0,0) exited"));
}

// Clusters of 4 blocks exchanging through distributed shared memory, more
// blocks than cores: each cluster's blocks wait for each other at cluster.sync().
// The peer's shared memory is mapped before the first cluster.sync(), when
// the peer may not have started: the block waits for it, lending its core.
__global__ void cluster_ring(int* out) {
  __shared__ int mine;
  const cg::cluster_group cluster = cg::this_cluster();
  const int* const peers = cluster.map_shared_rank(&mine, (cluster.block_rank() + 1) % cluster.num_blocks());
  if (threadIdx.x == 0) mine = static_cast<int>(blockIdx.x);
  cluster.sync();
  if (threadIdx.x == 0) out[blockIdx.x] = *peers;
  cluster.sync();
}

TEST(CoreSharing, ClustersWiderThanTheWorkersComplete) {
  const unsigned blocks = 16;
  cg::device_buffer<int> out(blocks);
  cg::launch_config config{dim3(blocks), dim3(32)};
  config.cluster = dim3(4);
  cg::launch_cooperative(cluster_ring, config, out.data());
  const std::vector<int> got = out.to_host();
  for (unsigned b = 0; b < blocks; ++b) EXPECT_EQ(got[b], static_cast<int>(b / 4 * 4 + (b % 4 + 1) % 4)) << b;
}

#if defined(__linux__)

bool same_cpus(const cpu_set_t& a, const cpu_set_t& b) { return CPU_EQUAL(&a, &b); }

cpu_set_t own_cpus() {
  cpu_set_t cpus;
  CPU_ZERO(&cpus);
  EXPECT_EQ(sched_getaffinity(0, sizeof cpus, &cpus), 0);
  return cpus;
}

// What each block's thread may run on, recorded by its first thread.
std::vector<cpu_set_t> block_cpus;

__global__ void record_cpus_at_grid_barriers(int rounds) {
  for (int r = 0; r < rounds; ++r) {
    if (threadIdx.x == 0) block_cpus[blockIdx.x + r * gridDim.x] = own_cpus();
    cg::this_grid().sync();
  }
}

__global__ void record_cpus() {
  if (threadIdx.x == 0) block_cpus[blockIdx.x] = own_cpus();
}

// How many CPUs the cores keep to: as many as there are cores, or CPUs the
// process may run on if fewer.
unsigned cpus_of_cores(const cpu_set_t& process, unsigned cores) {
  return std::min(cores, static_cast<unsigned>(CPU_COUNT(&process)));
}

TEST(CoreSharing, ABlockHoldingACoreKeepsToThatCoresCpu) {
  const unsigned blocks = 24;
  const int rounds = 3;
  const cpu_set_t process = own_cpus();
  const unsigned expected = cpus_of_cores(process, workers());
  block_cpus.assign(blocks * rounds, cpu_set_t{});
  cg::launch_cooperative(record_cpus_at_grid_barriers, {dim3(blocks), dim3(32)}, rounds);
  std::set<int> seen;
  for (const cpu_set_t& cpus : block_cpus) {
    ASSERT_EQ(CPU_COUNT(&cpus), 1);
    for (int c = 0; c < CPU_SETSIZE; ++c)
      if (CPU_ISSET(c, &cpus)) {
        EXPECT_TRUE(CPU_ISSET(c, &process)) << c;
        seen.insert(c);
      }
  }
  EXPECT_EQ(seen.size(), expected);
}

TEST(CoreSharing, ThreadsGetTheirCpusBackWhenTheirBlocksEnd) {
  const cpu_set_t before = own_cpus();
  block_cpus.assign(24, cpu_set_t{});
  cg::launch_cooperative(record_cpus_at_grid_barriers, {dim3(24), dim3(32)}, 1);
  EXPECT_TRUE(same_cpus(own_cpus(), before)) << "the launching thread's CPUs";
  // An ordinary launch runs on the same pool of OS threads, unconfined.
  const unsigned blocks = 64;
  block_cpus.assign(blocks, cpu_set_t{});
  cg::launch(record_cpus, {dim3(blocks), dim3(32)});
  for (unsigned b = 0; b < blocks; ++b) EXPECT_TRUE(same_cpus(block_cpus[b], before)) << "block " << b;
}

// A launching thread that its program confined keeps to its CPUs: a core on a
// CPU it may not run on leaves it where it is, and afterwards it still has
// its one CPU alone.
TEST(CoreSharing, AThreadTheProgramConfinedStaysConfined) {
  const cpu_set_t process = own_cpus();
  int first = 0;
  while (!CPU_ISSET(first, &process)) ++first;
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(first, &one);
  ASSERT_EQ(sched_setaffinity(0, sizeof one, &one), 0);
  block_cpus.assign(12, cpu_set_t{});
  cg::launch_cooperative(record_cpus_at_grid_barriers, {dim3(12), dim3(32)}, 1);
  EXPECT_TRUE(same_cpus(own_cpus(), one));
  ASSERT_EQ(sched_setaffinity(0, sizeof process, &process), 0);
}

#endif

}  // namespace
