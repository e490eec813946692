// Every diagnostic of warp-level collectives, triggered, with its message
// asserted: an error of the launch naming the kernel, block, thread and call
// site, never a hang.
#include <gmock/gmock.h>

#include <algorithm>
#include <cohort/cohort.hpp>
#include <vector>

#include "host_support.hpp"
#include "test_support.hpp"

namespace cg = cohort;
using ::testing::AllOf;
using ::testing::ContainsRegex;
using ::testing::HasSubstr;

namespace {

std::string at_line(int line) { return cohort_test::at_line("warp_diagnostics.cpp", line); }

using cohort_test::launch_error;

constexpr int exited_shfl_line = __LINE__ + 5;
__global__ void lane_five_leaves_before_the_shuffle(int* out) {
  const auto tile = cg::tiled_partition<32>(cg::this_thread_block());
  int v = static_cast<int>(threadIdx.x);
  if (threadIdx.x == 5) return;
  v = tile.shfl(v, 0);
  out[threadIdx.x] = v;
}

TEST(WarpDiagnostics, AMemberThatExitedCanNeverReachTheShuffle) {
  cg::device_buffer<int> out(32);
  const cg::error e =
      launch_error([&] { cg::launch(lane_five_leaves_before_the_shuffle, {dim3(1), dim3(32)}, out.data()); });
  EXPECT_EQ(e.kind(), cg::errc::unreachable_barrier);
  EXPECT_THAT(e.what(),
              AllOf(HasSubstr("collective `shfl` at"), HasSubstr(at_line(exited_shfl_line)),
                    HasSubstr("in kernel `(anonymous namespace)::lane_five_leaves_before_the_shuffle(int*)`, block "
                              "(0,0,0), thread (0,0,0) can never complete: thread (5,0,0) exited without reaching it"),
                    HasSubstr("the group is the 32 threads at lanes 0-31 of warp 0"),
                    HasSubstr("only sync() lets members leave early")));
}

constexpr int ballot_after_exit_line = __LINE__ + 4;
__global__ void lane_zero_leaves_first(unsigned* out) {
  const auto tile = cg::tiled_partition<16>(cg::this_thread_block());
  if (threadIdx.x == 16) return;
  out[threadIdx.x] = tile.ballot(1);
}

TEST(WarpDiagnostics, AMemberThatExitedBeforeTheOthersArrived) {
  cg::device_buffer<unsigned> out(32);
  const cg::error e = launch_error([&] { cg::launch(lane_zero_leaves_first, {dim3(1), dim3(32)}, out.data()); });
  EXPECT_EQ(e.kind(), cg::errc::unreachable_barrier);
  EXPECT_THAT(e.what(), AllOf(HasSubstr("collective `ballot` at "), HasSubstr(at_line(ballot_after_exit_line)),
                              HasSubstr("thread (17,0,0) can never complete: thread (16,0,0) exited"),
                              HasSubstr("the 16 threads at lanes 16-31 of warp 0")));
}

constexpr int partial_ballot_line = __LINE__ + 4;
constexpr int partial_barrier_line = __LINE__ + 4;
__global__ void half_the_tile_votes(unsigned* out) {
  const auto tile = cg::tiled_partition<32>(cg::this_thread_block());
  if (tile.thread_rank() < 16) out[threadIdx.x] = tile.ballot(1);
  __syncthreads();
}

TEST(WarpDiagnostics, ATileCollectiveReachedByPartOfTheTile) {
  cg::device_buffer<unsigned> out(64);
  const cg::error e = launch_error([&] { cg::launch(half_the_tile_votes, {dim3(1), dim3(64)}, out.data()); });
  EXPECT_EQ(e.kind(), cg::errc::deadlock);
  EXPECT_THAT(e.what(),
              AllOf(HasSubstr("deadlock in kernel `(anonymous namespace)::half_the_tile_votes(unsigned int*)`"),
                    HasSubstr("block (0,0,0): collective `ballot` at"), HasSubstr(at_line(partial_ballot_line)),
                    HasSubstr("(first reached by thread (0,0,0)) can never complete: 16 of the 32 members of "
                              "the 32 threads at lanes 0-31 of warp 0 arrived"),
                    HasSubstr("thread (16,0,0) and 15 others wait at a block barrier ("),
                    HasSubstr(at_line(partial_barrier_line))));
}

constexpr int waits_in_tile_line = __LINE__ + 7;
constexpr int waits_in_mask_line = __LINE__ + 8;
__global__ void overlapping_groups(int* out) {
  const auto tile = cg::tiled_partition<32>(cg::this_thread_block());
  const unsigned lane = threadIdx.x;
  int v = static_cast<int>(lane);
  if (lane < 16)
    v = tile.shfl(v, 3);
  else if (lane < 24)
    v = __shfl_sync(0x00FFFFFFu, v, 0);
  else
    __syncthreads();
  out[lane] = v;
}

TEST(WarpDiagnostics, MembersWaitingInAnotherCollective) {
  cg::device_buffer<int> out(32);
  const cg::error e = launch_error([&] { cg::launch(overlapping_groups, {dim3(1), dim3(32)}, out.data()); });
  EXPECT_EQ(e.kind(), cg::errc::deadlock);
  EXPECT_THAT(e.what(), AllOf(HasSubstr("can never complete"), HasSubstr("wait in `"),
                              HasSubstr(at_line(waits_in_tile_line)), HasSubstr(at_line(waits_in_mask_line))));
}

constexpr int mismatch_shfl_line = __LINE__ + 5;
constexpr int mismatch_any_line = __LINE__ + 6;
__global__ void half_shuffles_half_votes(int* out) {
  const auto tile = cg::tiled_partition<32>(cg::this_thread_block());
  if (threadIdx.x < 16)
    out[threadIdx.x] = tile.shfl(1, 0);
  else
    out[threadIdx.x] = tile.any(1);
}

TEST(WarpDiagnostics, MembersCallingDifferentCollectives) {
  cg::device_buffer<int> out(32);
  const cg::error e = launch_error([&] { cg::launch(half_shuffles_half_votes, {dim3(1), dim3(32)}, out.data()); });
  EXPECT_EQ(e.kind(), cg::errc::collective_mismatch);
  EXPECT_THAT(e.what(), AllOf(HasSubstr("members of one group call different collectives in kernel "
                                        "`(anonymous namespace)::half_shuffles_half_votes(int*)`, block (0,0,0), "
                                        "thread (16,0,0)"),
                              HasSubstr("thread (16,0,0) calls `any` at"), HasSubstr(at_line(mismatch_any_line)),
                              HasSubstr("while thread (0,0,0) waits in `shfl` at"),
                              HasSubstr(at_line(mismatch_shfl_line)), HasSubstr("with the same value type")));
}

__global__ void shuffles_types_of_two_sizes(int* out) {
  const auto tile = cg::tiled_partition<8>(cg::this_thread_block());
  if (threadIdx.x % 2 == 0)
    out[threadIdx.x] = tile.shfl(1, 0);
  else
    out[threadIdx.x] = static_cast<int>(tile.shfl(1.0, 0));
}

TEST(WarpDiagnostics, MembersShufflingValuesOfDifferentSizes) {
  cg::device_buffer<int> out(8);
  const cg::error e = launch_error([&] { cg::launch(shuffles_types_of_two_sizes, {dim3(1), dim3(8)}, out.data()); });
  EXPECT_EQ(e.kind(), cg::errc::collective_mismatch);
  EXPECT_THAT(e.what(), AllOf(HasSubstr("thread (1,0,0) calls `shfl`"), HasSubstr("thread (0,0,0) waits in `shfl`")));
}

constexpr int non_uniform_line = __LINE__ + 3;
__global__ void wide_tile_with_per_member_sources(int* out) {
  const auto tile = cg::tiled_partition<64>(cg::this_thread_block());
  out[threadIdx.x] = tile.shfl(static_cast<int>(threadIdx.x), tile.thread_rank() % 2);
}

TEST(WarpDiagnostics, ASourceRankThatDiffersAcrossAWideTile) {
  cohort_test::virtual_device_guard guard;
  cg::device_properties p = cohort::host::virtual_device();
  p.warp_size = 32;
  cohort::host::configure(p);
  cg::device_buffer<int> out(128);
  const cg::error e =
      launch_error([&] { cg::launch(wide_tile_with_per_member_sources, {dim3(1), dim3(128)}, out.data()); });
  EXPECT_EQ(e.kind(), cg::errc::non_uniform_argument);
  EXPECT_THAT(e.what(), AllOf(HasSubstr("`shfl` at"), HasSubstr(at_line(non_uniform_line)),
                              HasSubstr("needs the same source rank from every member of the tile of 64 threads at "
                                        "block ranks 0-63 (wider than a warp of 32)"),
                              HasSubstr("thread (0,0,0) passed 0"), HasSubstr("thread (1,0,0) passed 1")));
}

constexpr int dynamic_partition_line = __LINE__ + 3;
__global__ void partitions(int which, int* out) {
  const cg::thread_group tile4 = cg::tiled_partition<4>(cg::this_thread_block());
  const cg::thread_group g = which == 0   ? cg::tiled_partition(tile4, 8)
                             : which == 1 ? cg::tiled_partition(cg::this_thread_block(), 3)
                             : which == 2 ? cg::tiled_partition(cg::thread_group(cg::this_grid()), 2)
                             : which == 3 ? cg::tiled_partition(cg::this_thread_block(), 2048)
                             : which == 4 ? cg::tiled_partition(cg::thread_group(cg::this_cluster()), 2)
                                          : cg::tiled_partition(cg::thread_group(cg::this_multi_grid()), 2);
  out[threadIdx.x] = static_cast<int>(g.size());
}

TEST(WarpDiagnostics, TileSizesThatDoNotPartitionTheParent) {
  cg::device_buffer<int> out(32);
  const char* messages[] = {
      "tiled_partition into tiles of 8 threads of a tile of 4: the tile size must divide the parent's",
      "tiled_partition into tiles of 3 threads: a tile size is a power of two from 1 to 1024",
      "tiled_partition of a grid_group: only thread blocks, tiles and coalesced groups can be partitioned",
      "tiled_partition into tiles of 2048 threads: a tile size is a power of two from 1 to 1024",
      "tiled_partition of a cluster_group: only thread blocks, tiles and coalesced groups can be partitioned",
      "tiled_partition of a multi_grid_group: only thread blocks, tiles and coalesced groups can be partitioned"};
  for (int which = 0; which < 6; ++which) {
    const cg::error e = launch_error([&] { cg::launch(partitions, {dim3(1), dim3(32)}, which, out.data()); });
    EXPECT_EQ(e.kind(), cg::errc::invalid_argument);
    EXPECT_THAT(e.what(), AllOf(HasSubstr(messages[which]), HasSubstr(at_line(dynamic_partition_line + which)),
                                HasSubstr("in kernel `(anonymous namespace)::partitions(int, int*)`, block (0,0,0), "
                                          "thread (0,0,0)")));
  }
}

constexpr int labeled_wide_line = __LINE__ + 3;
__global__ void labels_a_wide_tile(int* out) {
  const auto tile = cg::tiled_partition<64>(cg::this_thread_block());
  out[threadIdx.x] = static_cast<int>(cg::labeled_partition(tile, threadIdx.x % 3).size());
}

TEST(WarpDiagnostics, PartitioningATileWiderThanTheWarpIntoCoalescedGroups) {
  cohort_test::virtual_device_guard guard;
  cg::device_properties p = cohort::host::virtual_device();
  p.warp_size = 32;
  cohort::host::configure(p);
  cg::device_buffer<int> out(64);
  const cg::error e = launch_error([&] { cg::launch(labels_a_wide_tile, {dim3(1), dim3(64)}, out.data()); });
  EXPECT_EQ(e.kind(), cg::errc::invalid_argument);
  EXPECT_THAT(e.what(), AllOf(HasSubstr("labeled_partition of a tile of 64 threads: its coalesced groups must lie "
                                        "within one warp, and a warp has 32 threads"),
                              HasSubstr(at_line(labeled_wide_line))));
}

constexpr int tile_memory_line = __LINE__ + 3;
__global__ void tile_memory_for_a_smaller_block(int* out) {
  __shared__ cg::block_tile_memory<256> shared;
  const cg::thread_block block = cg::this_thread_block(shared);
  out[block.thread_rank()] = 1;
}

TEST(WarpDiagnostics, BlockTileMemoryForASmallerBlock) {
  cg::device_buffer<int> out(512);
  const cg::error e =
      launch_error([&] { cg::launch(tile_memory_for_a_smaller_block, {dim3(1), dim3(512)}, out.data()); });
  EXPECT_EQ(e.kind(), cg::errc::invalid_argument);
  EXPECT_THAT(e.what(), AllOf(HasSubstr("this_thread_block(block_tile_memory<256>) in a block of 512 threads: the "
                                        "memory serves blocks of at most 256"),
                              HasSubstr(at_line(tile_memory_line))));
}

constexpr int outside_mask_line = __LINE__ + 2;
__global__ void shuffles_outside_its_mask(int* out) {
  out[threadIdx.x] = __shfl_sync(0x1u, static_cast<int>(threadIdx.x), 0);
}

constexpr int bad_width_line = __LINE__ + 2;
__global__ void shuffles_at_width_three(int* out) {
  out[threadIdx.x] = __shfl_down_sync(0xFFFFFFFFu, static_cast<int>(threadIdx.x), 1, 3);
}

TEST(WarpDiagnostics, IntrinsicsWithAMaskWithoutTheCallerOrABadWidth) {
  cg::device_buffer<int> out(32);
  const cg::error outside =
      launch_error([&] { cg::launch(shuffles_outside_its_mask, {dim3(1), dim3(32)}, out.data()); });
  EXPECT_EQ(outside.kind(), cg::errc::invalid_argument);
  EXPECT_THAT(outside.what(), AllOf(HasSubstr("__shfl_sync with mask 0x1 is called by lane 1, which the mask does not "
                                              "name"),
                                    HasSubstr(at_line(outside_mask_line)), HasSubstr("thread (1,0,0)")));
  const cg::error width = launch_error([&] { cg::launch(shuffles_at_width_three, {dim3(1), dim3(32)}, out.data()); });
  EXPECT_EQ(width.kind(), cg::errc::invalid_argument);
  EXPECT_THAT(width.what(), AllOf(HasSubstr("__shfl_down_sync with width 3: the width must be a power of two from 1 "
                                            "to the warp size"),
                                  HasSubstr(at_line(bad_width_line))));
}

constexpr int coalesced_exit_line = __LINE__ + 5;
__global__ void coalesced_member_leaves(int* out) {
  if (threadIdx.x % 2 == 0) {
    const cg::coalesced_group g = cg::coalesced_threads();
    if (g.thread_rank() == 3) return;
    out[threadIdx.x] = g.shfl(static_cast<int>(threadIdx.x), 0);
  }
}

TEST(WarpDiagnostics, AMemberOfACoalescedGroupThatExited) {
  cg::device_buffer<int> out(32);
  const cg::error e = launch_error([&] { cg::launch(coalesced_member_leaves, {dim3(1), dim3(32)}, out.data()); });
  EXPECT_EQ(e.kind(), cg::errc::unreachable_barrier);
  EXPECT_THAT(e.what(),
              AllOf(HasSubstr("collective `shfl` at"), HasSubstr(at_line(coalesced_exit_line)),
                    HasSubstr("thread (6,0,0) exited without reaching it"),
                    HasSubstr("the 16 threads at lanes 0,2,4,6,8,10,12,14,16,18,20,22,24,26,28,30 of warp 0")));
}

// The two halves of a warp pass __ballot_sync different masks at one call
// site, and the half whose mask leaves out the other completes and exits:
// the other half's full mask named lanes that called with another mask, not
// lanes that had exited without calling. Each half got a partial ballot, no
// error; whichever half runs first (the shuffled schedule), it is one now.
constexpr int ballot_masks_line = __LINE__ + 3;
__global__ void halves_pass_different_masks(unsigned* out) {
  const unsigned lane = threadIdx.x % 32;
  out[threadIdx.x] = __ballot_sync(lane < 16 ? 0xffffffffu : 0xffff0000u, 1);
}

TEST(WarpDiagnostics, LanesPassingDifferentMasksToOneIntrinsic) {
  cg::device_buffer<unsigned> out(32);
  for (const char* schedule : {"ordered", "shuffle:1", "shuffle:2", "shuffle:3"}) {
    const cohort_test::scoped_env order("COHORT_SCHEDULE", schedule);
    const cg::error e = launch_error([&] { cg::launch(halves_pass_different_masks, {dim3(1), dim3(32)}, out.data()); });
    EXPECT_EQ(e.kind(), cg::errc::collective_mismatch) << schedule;
    EXPECT_THAT(e.what(),
                AllOf(HasSubstr("lanes of one warp call `__ballot_sync` at"), HasSubstr(at_line(ballot_masks_line)),
                      HasSubstr("with different masks in kernel `(anonymous namespace)::halves_pass_different_masks"),
                      HasSubstr(" waits with mask 0xffffffff, which names thread ("),
                      HasSubstr("called it with mask 0xffff0000 and exited")))
        << schedule;
  }
}

// Not the same: lanes that exit after an intrinsic elsewhere, or before any,
// are excused from a later one whose mask names them (PTX's rule for exited
// lanes).
__global__ void half_votes_then_leaves(unsigned* out) {
  const unsigned lane = threadIdx.x % 32;
  if (lane >= 16) {
    out[threadIdx.x] = __ballot_sync(0xffff0000u, 1);
    return;
  }
  out[threadIdx.x] = __ballot_sync(0xffffffffu, 1);
}

TEST(WarpDiagnostics, LanesThatExitAfterAnotherIntrinsicAreExcused) {
  cg::device_buffer<unsigned> out(32);
  for (const char* schedule : {"ordered", "shuffle:1", "shuffle:2"}) {
    const cohort_test::scoped_env order("COHORT_SCHEDULE", schedule);
    cg::launch(half_votes_then_leaves, {dim3(1), dim3(32)}, out.data());
    std::vector<unsigned> expected(32, 0xffff0000u);                  // the upper half's own ballot
    std::fill(expected.begin(), expected.begin() + 16, 0x0000ffffu);  // the full mask's, less the lanes gone
    EXPECT_EQ(out.to_host(), expected) << schedule;
  }
}

// Lane 1 passes a mask of lanes 0-1 where the others pass the full warp, at
// one call site: lane 0 waits for lane 1 in one call, lane 1 for lane 0 in
// another. A GPU may hang; here the launch fails naming both lanes' masks,
// for __syncwarp and for the intrinsics that exchange values alike.
constexpr int disagreeing_masks_line = __LINE__ + 5;  // __syncwarp's; __shfl_sync's 2 lines on, __ballot_sync's 4
__global__ void lane_one_names_fewer_lanes(unsigned* out, int intrinsic) {
  const unsigned lane = threadIdx.x % 32;
  const unsigned mask = lane == 1 ? 0x3u : 0xffffffffu;
  if (intrinsic == 0)
    __syncwarp(mask);
  else if (intrinsic == 1)
    out[lane] = __shfl_sync(mask, lane, 0);  // NOLINT
  else
    out[lane] = __ballot_sync(mask, 1);
}

TEST(WarpDiagnostics, LanesWaitingForEachOtherWithDifferentMasks) {
  cg::device_buffer<unsigned> out(32);
  const char* names[] = {"__syncwarp", "__shfl_sync", "__ballot_sync"};
  for (int intrinsic = 0; intrinsic < 3; ++intrinsic)
    for (const char* schedule : {"ordered", "shuffle:1", "shuffle:2", "shuffle:3"}) {
      const cohort_test::scoped_env order("COHORT_SCHEDULE", schedule);
      const cg::error e =
          launch_error([&] { cg::launch(lane_one_names_fewer_lanes, {dim3(1), dim3(32)}, out.data(), intrinsic); });
      const std::string in = std::string(" waits in `") + names[intrinsic] + "` at [^ ]*" +
                             at_line(disagreeing_masks_line + 2 * intrinsic) + "[0-9]+ with mask ";
      EXPECT_EQ(e.kind(), cg::errc::deadlock) << names[intrinsic] << ' ' << schedule;
      EXPECT_THAT(e.what(),
                  AllOf(HasSubstr("deadlock in kernel `(anonymous namespace)::lane_one_names_fewer_lanes("
                                  "unsigned int*, int)`, block (0,0,0): lanes of warp 0 wait for each other with "
                                  "different masks: "),
                        ContainsRegex("thread \\(0,0,0\\)" + in + "0xffffffff, which names lane 1"),
                        ContainsRegex("thread \\(1,0,0\\)" + in + "0x3, which names lane 0"),
                        HasSubstr("every lane a mask names must call the intrinsic with the same mask")))
          << names[intrinsic] << ' ' << schedule;
    }
}

// Lane 1's mask names only itself: its __syncwarp completes and it exits,
// while the full mask of the others named it.
constexpr int syncwarp_then_exit_line = __LINE__ + 3;
__global__ void lane_one_syncs_alone_and_leaves() {
  const unsigned lane = threadIdx.x % 32;
  __syncwarp(lane == 1 ? 0x2u : 0xffffffffu);
}

// Lane 1 waits at a block barrier the others, in __syncwarp, never reach.
constexpr int syncwarp_never_reached_line = __LINE__ + 6;
constexpr int barrier_instead_line = __LINE__ + 3;
__global__ void lane_one_waits_at_the_block_barrier() {
  if (threadIdx.x == 1)
    __syncthreads();
  else
    __syncwarp();
}

// Half the warp at __syncwarp, half at __ballot_sync, both with the full mask.
__global__ void halves_at_syncwarp_and_ballot(unsigned* out) {
  if (threadIdx.x < 16)
    __syncwarp();
  else
    out[threadIdx.x] = __ballot_sync(0xffffffffu, 1);
}

// A lane that exits before the __syncwarp its mask names is excused (PTX).
__global__ void lane_one_leaves_before_syncwarp(unsigned* out) {
  if (threadIdx.x == 1) return;
  __syncwarp();
  out[threadIdx.x] = 1;
}

TEST(WarpDiagnostics, SyncwarpWithALaneThatExitedOrNeverArrives) {
  for (const char* schedule : {"ordered", "shuffle:1", "shuffle:2"}) {
    const cohort_test::scoped_env order("COHORT_SCHEDULE", schedule);
    const cg::error alone = launch_error([&] { cg::launch(lane_one_syncs_alone_and_leaves, {dim3(1), dim3(32)}); });
    EXPECT_EQ(alone.kind(), cg::errc::collective_mismatch) << schedule;
    EXPECT_THAT(alone.what(),
                AllOf(HasSubstr("lanes of one warp call `__syncwarp` at "), HasSubstr(at_line(syncwarp_then_exit_line)),
                      HasSubstr(" with different masks in kernel "
                                "`(anonymous namespace)::lane_one_syncs_alone_and_leaves()`"),
                      HasSubstr(" waits with mask 0xffffffff, which names thread (1,0,0), and that thread called it "
                                "with mask 0x2 and exited")))
        << schedule;
    const cg::error never = launch_error([&] { cg::launch(lane_one_waits_at_the_block_barrier, {dim3(1), dim3(32)}); });
    EXPECT_EQ(never.kind(), cg::errc::deadlock) << schedule;
    EXPECT_THAT(never.what(),
                AllOf(HasSubstr("collective `__syncwarp` at "), HasSubstr(at_line(syncwarp_never_reached_line)),
                      HasSubstr("can never complete: 31 of the 32 members of the 32 threads at lanes 0-31 of warp 0 "
                                "arrived; thread (1,0,0) waits at a block barrier ("),
                      HasSubstr(at_line(barrier_instead_line))))
        << schedule;
    cg::device_buffer<unsigned> out(std::vector<unsigned>(32, 0));
    const cg::error other =
        launch_error([&] { cg::launch(halves_at_syncwarp_and_ballot, {dim3(1), dim3(32)}, out.data()); });
    EXPECT_EQ(other.kind(), cg::errc::collective_mismatch) << schedule;
    EXPECT_THAT(other.what(), AllOf(HasSubstr("members of one group call different collectives"),
                                    HasSubstr("`__syncwarp` at "), HasSubstr("`__ballot_sync` at ")))
        << schedule;
    cg::launch(lane_one_leaves_before_syncwarp, {dim3(1), dim3(32)}, out.data());
    std::vector<unsigned> expected(32, 1u);
    expected[1] = 0;  // lane 1 left without writing
    EXPECT_EQ(out.to_host(), expected) << schedule;
  }
}

// After an error the runtime runs the next launch normally.
__global__ void clean_shuffle(int* out) {
  out[threadIdx.x] = cg::tiled_partition<32>(cg::this_thread_block()).shfl(static_cast<int>(threadIdx.x), 31);
}

TEST(WarpDiagnostics, TheNextLaunchRunsCleanly) {
  cg::device_buffer<int> out(64);
  launch_error([&] { cg::launch(half_the_tile_votes, {dim3(2), dim3(64)}, reinterpret_cast<unsigned*>(out.data())); });
  launch_error([&] { cg::launch(coalesced_member_leaves, {dim3(2), dim3(32)}, out.data()); });
  cg::launch(clean_shuffle, {dim3(1), dim3(64)}, out.data());
  const auto got = out.to_host();
  for (unsigned t = 0; t < 64; ++t) EXPECT_EQ(got[t], static_cast<int>(t / 32 * 32 + 31));
}

}  // namespace
