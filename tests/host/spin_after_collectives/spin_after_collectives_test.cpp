// Legal spin-waits after every kind of barrier and collective: ctest runs this
// binary with COHORT_WORKERS at 1, 2, 3 and 64 (read once per process). A
// spin that follows a collective starts with the collective's threads
// released but not all resumed yet, and with the thread's poll counters left
// as the collective (and earlier blocks, and earlier launches) left them: the
// spinning thread must yield to the others all the same, without the switch
// losing track of which fiber runs. Within a block thread 0 waits for thread
// 1; across the blocks of a cooperative grid, and of a cluster, thread 0 of
// each block waits at a barrier written by hand with atomics, in grids of
// more blocks than workers.
#include <gmock/gmock.h>

#include <cohort/cohort.hpp>
#include <initializer_list>
#include <ostream>
#include <string>
#include <tuple>
#include <vector>

#include "host_support.hpp"
#include "test_support.hpp"

namespace cg = cohort;

namespace {

enum class before {
  nothing,
  syncwarp,
  syncthreads,
  tile_sync,
  tile_reduce,
  ballot,
  shfl,
  any_all,
  match,
  coalesced_threads,
  memcpy_async_wait,
  grid_sync,
  cluster_sync,
};

// How the spinning thread polls: an atomic, a volatile load with a fence, a
// volatile load with __nanosleep (docs/host-backend.md: each is a yield point).
enum class spin { atomic_load, volatile_and_fence, volatile_and_nanosleep };

constexpr unsigned block_threads = 64;
constexpr unsigned full_mask = 0xffffffffu;

// Runs `c` in every thread of the block; returns what thread 0 got from it,
// which the tests compare with expected_from().
__device__ int run_collective(before c, const int* source) {
  __shared__ int staged[block_threads];
  const cg::thread_block block = cg::this_thread_block();
  const auto tile = cg::tiled_partition<32>(block);
  const int lane = static_cast<int>(threadIdx.x % 32);
  switch (c) {
    case before::nothing:
      return 0;
    case before::syncwarp:
      __syncwarp();
      return 0;
    case before::syncthreads:
      __syncthreads();
      return 0;
    case before::tile_sync:
      tile.sync();
      return 0;
    case before::tile_reduce:
      return cg::reduce(tile, 1, cg::plus<int>());
    case before::ballot:
      return __popc(__ballot_sync(full_mask, 1));
    case before::shfl:
      return __shfl_sync(full_mask, lane + 5, 3);
    case before::any_all:
      return __any_sync(full_mask, lane == 3) + __all_sync(full_mask, 1);
    case before::match:
      return __popc(__match_any_sync(full_mask, lane / 8));
    case before::coalesced_threads:
      return static_cast<int>(cg::coalesced_threads().num_threads());
    case before::memcpy_async_wait:
      cg::memcpy_async(block, staged, source, sizeof staged);
      cg::wait(block);
      return staged[5];
    case before::grid_sync:
      cg::this_grid().sync();
      return 0;
    case before::cluster_sync:
      cg::this_cluster().sync();
      return 0;
  }
  return -1;
}

int expected_from(before c) {
  switch (c) {
    case before::tile_reduce:
    case before::ballot:
    case before::coalesced_threads:
      return 32;
    case before::shfl:
      return 8;
    case before::any_all:
      return 2;
    case before::match:
      return 8;
    case before::memcpy_async_wait:
      return 5;
    default:
      return 0;
  }
}

// CUDA's volatile poll. TSan models C++, in which a volatile read of what a
// block on another worker writes with an atomic is a data race (and reports
// it, rightly for a host program); under TSan the poll is a relaxed atomic
// load instead, the loop's yield point (the fence, the sleep) the same.
__device__ int polled(int* flag) {
#if defined(__SANITIZE_THREAD__)
  return __atomic_load_n(flag, __ATOMIC_RELAXED);
#else
  return *static_cast<volatile int*>(flag);
#endif
}

// Polls *flag until it is at least `target`.
__device__ void spin_until(spin how, int* flag, int target) {
  switch (how) {
    case spin::atomic_load:
      while (atomicAdd(flag, 0) < target) {
      }
      return;
    case spin::volatile_and_fence:
      while (polled(flag) < target) __threadfence();
      return;
    case spin::volatile_and_nanosleep:
      while (polled(flag) < target) __nanosleep(10);
      return;
  }
}

// Thread 0 waits for thread 1 of its block.
__global__ void waits_within_block(before c, spin how, const int* source, int* flags, int* out) {
  const int seen = run_collective(c, source);
  int* const flag = flags + blockIdx.x;
  if (threadIdx.x == 0) {
    spin_until(how, flag, 1);
    out[blockIdx.x] = seen;
  } else if (threadIdx.x == 1) {
    atomicExch(flag, 1);
  }
}

// Thread 0 of each block arrives at a barrier of `group` blocks written with
// atomics and waits there for the others; the block's other threads wait for
// it at __syncthreads().
__global__ void waits_for_other_blocks(before c, spin how, const int* source, int* arrived, unsigned group, int* out) {
  const int seen = run_collective(c, source);
  int* const counter = arrived + blockIdx.x / group;
  if (threadIdx.x == 0) {
    atomicAdd(counter, 1);
    spin_until(how, counter, static_cast<int>(group));
  }
  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = seen + atomicAdd(counter, 0);
}

std::vector<int> iota_source() {
  std::vector<int> v(block_threads);
  for (unsigned i = 0; i < block_threads; ++i) v[i] = static_cast<int>(i);
  return v;
}

const char* name_of(before c) {
  constexpr const char* names[] = {"Nothing",         "Syncwarp", "Syncthreads", "TileSync", "TileReduce",
                                   "Ballot",          "Shfl",     "AnyAll",      "Match",    "CoalescedThreads",
                                   "MemcpyAsyncWait", "GridSync", "ClusterSync"};
  return names[static_cast<int>(c)];
}
const char* name_of(spin s) {
  constexpr const char* names[] = {"Atomic", "VolatileAndFence", "VolatileAndNanosleep"};
  return names[static_cast<int>(s)];
}

void PrintTo(before c, std::ostream* os) { *os << name_of(c); }
void PrintTo(spin s, std::ostream* os) { *os << name_of(s); }

using spin_case = std::tuple<before, spin>;
std::string case_name(const ::testing::TestParamInfo<spin_case>& info) {
  return std::string(name_of(std::get<0>(info.param))) + "Then" + name_of(std::get<1>(info.param));
}

// Every case of `collectives`, each followed by every kind of spin.
auto cases(std::initializer_list<before> collectives) {
  return ::testing::Combine(
      ::testing::ValuesIn(std::vector<before>(collectives)),
      ::testing::Values(spin::atomic_load, spin::volatile_and_fence, spin::volatile_and_nanosleep));
}

#define BLOCK_COLLECTIVES                                                                                         \
  before::nothing, before::syncwarp, before::syncthreads, before::tile_sync, before::tile_reduce, before::ballot, \
      before::shfl, before::any_all, before::match, before::coalesced_threads, before::memcpy_async_wait

class SpinInABlockAfter : public ::testing::TestWithParam<spin_case> {};

// Twice, so that the second launch starts with the poll counters the first
// left behind, in more blocks than the default 1-2 workers run at once.
TEST_P(SpinInABlockAfter, AThreadWaitingForAnotherOfItsBlockLetsItRun) {
  const auto [c, how] = GetParam();
  const unsigned blocks = 6;
  cg::device_buffer<int> source(iota_source());
  for (int launch = 0; launch < 2; ++launch) {
    cg::device_buffer<int> flags(std::vector<int>(blocks, 0)), out(std::vector<int>(blocks, -1));
    cg::launch(waits_within_block, {dim3(blocks), dim3(block_threads)}, c, how, source.data(), flags.data(),
               out.data());
    EXPECT_EQ(out.to_host(), std::vector<int>(blocks, expected_from(c))) << "launch " << launch;
  }
}
INSTANTIATE_TEST_SUITE_P(EveryCollective, SpinInABlockAfter, cases({BLOCK_COLLECTIVES}), case_name);

class SpinInACooperativeGridAfter : public ::testing::TestWithParam<spin_case> {};

TEST_P(SpinInACooperativeGridAfter, BlocksWaitingForEachOtherLetEachOtherRun) {
  const auto [c, how] = GetParam();
  const unsigned blocks = 8;
  cg::device_buffer<int> source(iota_source());
  for (int launch = 0; launch < 2; ++launch) {
    cg::device_buffer<int> arrived(std::vector<int>{0}), out(std::vector<int>(blocks, -1));
    cg::launch_cooperative(waits_for_other_blocks, {dim3(blocks), dim3(block_threads)}, c, how, source.data(),
                           arrived.data(), blocks, out.data());
    EXPECT_EQ(out.to_host(), std::vector<int>(blocks, expected_from(c) + static_cast<int>(blocks)))
        << "launch " << launch;
  }
}
INSTANTIATE_TEST_SUITE_P(EveryCollective, SpinInACooperativeGridAfter, cases({BLOCK_COLLECTIVES, before::grid_sync}),
                         case_name);

class SpinInAClusterAfter : public ::testing::TestWithParam<spin_case> {};

TEST_P(SpinInAClusterAfter, BlocksWaitingForEachOtherLetEachOtherRun) {
  const auto [c, how] = GetParam();
  const unsigned blocks = 8, cluster = 4;
  cg::device_buffer<int> source(iota_source());
  cg::device_buffer<int> arrived(std::vector<int>(blocks / cluster, 0)), out(std::vector<int>(blocks, -1));
  cg::launch_config config{dim3(blocks), dim3(block_threads)};
  config.cluster = dim3(cluster);
  cg::launch(waits_for_other_blocks, config, c, how, source.data(), arrived.data(), cluster, out.data());
  EXPECT_EQ(out.to_host(), std::vector<int>(blocks, expected_from(c) + static_cast<int>(cluster)));
}
INSTANTIATE_TEST_SUITE_P(EveryCollective, SpinInAClusterAfter, cases({BLOCK_COLLECTIVES, before::cluster_sync}),
                         case_name);

// A grid barrier written by hand, round after round, in a cooperative grid
// of three times as many blocks as the default workers: each block's thread 0
// spins, right after __syncthreads(), until every block has arrived.
__global__ void hand_written_grid_barrier(int rounds, int* arrived, int* out) {
  const int blocks = static_cast<int>(gridDim.x);
  for (int r = 1; r <= rounds; ++r) {
    __syncthreads();
    if (threadIdx.x == 0) {
      out[r * blocks + static_cast<int>(blockIdx.x)] = atomicAdd(arrived, 0) >= (r - 1) * blocks;
      atomicAdd(arrived, 1);
      while (atomicAdd(arrived, 0) < r * blocks) {
      }
    }
    __syncthreads();
  }
}

TEST(SpinBetweenBlocks, AHandWrittenGridBarrierHoldsRoundAfterRound) {
  const int blocks = 24, rounds = 10;
  cg::device_buffer<int> arrived(std::vector<int>{0}), out(std::vector<int>((rounds + 1) * blocks, 1));
  cg::launch_cooperative(hand_written_grid_barrier, {dim3(blocks), dim3(128)}, rounds, arrived.data(), out.data());
  // No block ran a round ahead: each saw every block arrive at the round before.
  EXPECT_EQ(out.to_host(), std::vector<int>((rounds + 1) * blocks, 1));
  EXPECT_EQ(arrived.to_host()[0], rounds * blocks);
}

}  // namespace
