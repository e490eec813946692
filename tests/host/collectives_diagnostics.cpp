// Every diagnostic of reduce, the scans, the *_update forms and grid
// collectives, triggered, with its message asserted.
#include <gmock/gmock.h>

#include <cohort/cohort.hpp>

#include "host_support.hpp"
#include "test_support.hpp"

namespace cg = cohort;
using cohort_test::launch_error;
using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::MatchesRegex;

namespace {

std::string at_line(int line) { return cohort_test::at_line("collectives_diagnostics.cpp", line); }

constexpr int not_cooperative_line = __LINE__ + 3;
__global__ void grid_reduce(int* out) {
  const cg::grid_group grid = cg::this_grid();
  out[grid.thread_rank()] = cg::reduce(grid, 1, cg::plus<int>());
}

TEST(CollectiveDiagnostics, AGridCollectiveOutsideACooperativeLaunch) {
  cg::device_buffer<int> out(64);
  const cg::error e = launch_error([&] { cg::launch(grid_reduce, {dim3(2), dim3(32)}, out.data()); });
  EXPECT_EQ(e.kind(), cg::errc::not_cooperative);
  EXPECT_THAT(e.what(), AllOf(HasSubstr("grid collective `reduce` at "), HasSubstr(at_line(not_cooperative_line)),
                              HasSubstr("in kernel `(anonymous namespace)::grid_reduce(int*)`, block (0,0,0), thread "
                                        "(0,0,0): the kernel was not launched cooperatively"),
                              HasSubstr("launch it with cohort::launch_cooperative(...)")));
}

constexpr int block_scan_line = __LINE__ + 4;
__global__ void thread_five_leaves(int* out) {
  const cg::thread_block block = cg::this_thread_block();
  if (threadIdx.x == 5) return;
  out[threadIdx.x] = cg::inclusive_scan(block, 1);
}

TEST(CollectiveDiagnostics, AMemberThatExitedCanNeverReachABlockScan) {
  cg::device_buffer<int> out(100);
  const cg::error e = launch_error([&] { cg::launch(thread_five_leaves, {dim3(1), dim3(100)}, out.data()); });
  EXPECT_EQ(e.kind(), cg::errc::unreachable_barrier);
  EXPECT_THAT(e.what(), AllOf(HasSubstr("collective `inclusive_scan` at "), HasSubstr(at_line(block_scan_line)),
                              HasSubstr("can never complete: thread (5,0,0) exited without reaching it; the group is "
                                        "the block's 100 threads"),
                              HasSubstr("every member of a group must take part in each of its collectives")));
}

constexpr int grid_scan_line = __LINE__ + 4;
__global__ void block_one_leaves(int* out) {
  const cg::grid_group grid = cg::this_grid();
  if (grid.block_rank() == 1) return;
  out[grid.thread_rank()] = cg::exclusive_scan(grid, 1);
}

TEST(CollectiveDiagnostics, ABlockThatExitedCanNeverReachAGridCollective) {
  cg::device_buffer<int> out(96);
  const cg::error e = launch_error([&] { cg::launch_cooperative(block_one_leaves, {dim3(3), dim3(32)}, out.data()); });
  EXPECT_EQ(e.kind(), cg::errc::unreachable_barrier);
  EXPECT_THAT(e.what(),
              AllOf(HasSubstr("grid collective `exclusive_scan` at "), HasSubstr(at_line(grid_scan_line)),
                    HasSubstr("can never complete: block (1,0,0) exited after arriving at 0 grid barrier(s)"),
                    HasSubstr("every block of a cooperative launch must reach every grid collective and grid.sync()")));
}

constexpr int block_zero_line = __LINE__ + 6;
constexpr int other_blocks_line = __LINE__ + 7;
constexpr int sync_line = __LINE__ + 8;
__global__ void blocks_disagree(int* out, int with_sync) {
  const cg::grid_group grid = cg::this_grid();
  if (grid.block_rank() == 0)
    out[grid.thread_rank()] = cg::reduce(grid, 1, cg::plus<int>());
  else if (!with_sync)
    out[grid.thread_rank()] = cg::inclusive_scan(grid, 1, cg::plus<int>());
  else
    grid.sync();
}

TEST(CollectiveDiagnostics, BlocksCallingDifferentGridCollectives) {
  cg::device_buffer<int> out(64);
  const cg::error e =
      launch_error([&] { cg::launch_cooperative(blocks_disagree, {dim3(2), dim3(32)}, out.data(), 0); });
  EXPECT_EQ(e.kind(), cg::errc::collective_mismatch);
  EXPECT_THAT(e.what(), AllOf(HasSubstr("blocks of one grid call different grid collectives: grid collective `"),
                              HasSubstr("meets block ("), HasSubstr(at_line(block_zero_line)),
                              HasSubstr(at_line(other_blocks_line)), HasSubstr("in `"),
                              HasSubstr("every block must call the same grid collectives (with the same value type) "
                                        "and grid.sync() in the same order")));
}

TEST(CollectiveDiagnostics, AGridCollectiveMeetingGridSync) {
  cg::device_buffer<int> out(64);
  const cg::error e =
      launch_error([&] { cg::launch_cooperative(blocks_disagree, {dim3(2), dim3(32)}, out.data(), 1); });
  EXPECT_EQ(e.kind(), cg::errc::collective_mismatch);
  EXPECT_THAT(e.what(), AllOf(HasSubstr("grid collective `reduce` at "), HasSubstr(at_line(block_zero_line)),
                              HasSubstr("meets block (1,0,0) in `grid.sync` at "), HasSubstr(at_line(sync_line))));
}

// Half of each block arrives at a grid barrier, then all of it joins a grid
// collective: the block's arrival can never be made whole.
constexpr int arrive_line = __LINE__ + 4;
constexpr int pending_line = __LINE__ + 4;
__global__ void arrives_then_reduces(int* out) {
  const cg::grid_group grid = cg::this_grid();
  if (threadIdx.x < 16) (void)grid.barrier_arrive();
  out[grid.thread_rank()] = cg::reduce(grid, 1, cg::plus<int>());
}

TEST(CollectiveDiagnostics, AGridCollectiveBetweenBarrierArriveAndWait) {
  cg::device_buffer<int> out(64);
  const cg::error e =
      launch_error([&] { cg::launch_cooperative(arrives_then_reduces, {dim3(2), dim3(32)}, out.data()); });
  EXPECT_EQ(e.kind(), cg::errc::collective_mismatch);
  EXPECT_THAT(e.what(), AllOf(HasSubstr("grid collective `reduce` at "), HasSubstr(at_line(pending_line)),
                              HasSubstr("is called while threads of the block have arrived at a grid barrier ("),
                              HasSubstr(at_line(arrive_line)), HasSubstr("without waiting at it")));
}

constexpr int update_line = __LINE__ + 4;
__global__ void each_lane_its_own_counter(int* counters) {
  const auto tile = cg::tiled_partition<32>(cg::this_thread_block());
  cg::atomic_ref<int> mine(counters[threadIdx.x % 2]);
  cg::reduce_update_async(tile, mine, 1, cg::plus<int>());
}

TEST(CollectiveDiagnostics, MembersPassingDifferentAtomics) {
  cg::device_buffer<int> counters(2);
  const cg::error e =
      launch_error([&] { cg::launch(each_lane_its_own_counter, {dim3(1), dim3(32)}, counters.data()); });
  EXPECT_EQ(e.kind(), cg::errc::non_uniform_argument);
  EXPECT_THAT(e.what(), AllOf(HasSubstr("`reduce_update_async` at "), HasSubstr(at_line(update_line)),
                              HasSubstr("needs the same atomic or pointer from every member of the 32 threads at "
                                        "lanes 0-31 of warp 0: thread (0,0,0) passed 0x"),
                              HasSubstr("and thread (1,0,0) passed 0x")));
}

constexpr int reduce_line = __LINE__ + 6;
constexpr int scan_line = __LINE__ + 7;
__global__ void half_reduce_half_scan(int* out) {
  const auto tile = cg::tiled_partition<64>(cg::this_thread_block());
  const int v = static_cast<int>(threadIdx.x);
  if (threadIdx.x < 40)
    out[threadIdx.x] = cg::reduce(tile, v, cg::plus<int>());
  else
    out[threadIdx.x] = cg::inclusive_scan(tile, v, cg::plus<int>());
}

TEST(CollectiveDiagnostics, MembersCallingDifferentCollectives) {
  cg::device_buffer<int> out(64);
  const cg::error e = launch_error([&] { cg::launch(half_reduce_half_scan, {dim3(1), dim3(64)}, out.data()); });
  EXPECT_EQ(e.kind(), cg::errc::collective_mismatch);
  EXPECT_THAT(e.what(), AllOf(HasSubstr("calls `inclusive_scan` at"), HasSubstr(at_line(scan_line)),
                              HasSubstr("waits in `reduce` at"), HasSubstr(at_line(reduce_line))));
}

}  // namespace
