// The host backend's own warp-level rules, where CUDA leaves the outcome to
// the hardware or leaves it undefined: warp-local scheduling, which lanes
// coalesced_threads() groups, what exited lanes mean to the intrinsics and to
// sync(), a warp size of 64, and the types only host code can shuffle.
#include <gmock/gmock.h>

#include <algorithm>
#include <atomic>
#include <cohort/cohort.hpp>
#include <cohort/host/statistics.hpp>
#include <complex>
#include <stdexcept>

#include "host_support.hpp"
#include "test_support.hpp"

namespace cg = cohort;

namespace {

void set_warp_size(int w) {
  cg::device_properties p = cohort::host::virtual_device();
  p.warp_size = w;
  cohort::host::configure(p);
}

// Only warp 0 shuffles: its lanes need a fiber each, the rest of the block runs
// on the fiber that completes the last shuffle, without waiting.
__global__ void only_warp_zero_shuffles(int* out) {
  const auto tile = cg::tiled_partition<32>(cg::this_thread_block());
  int v = static_cast<int>(threadIdx.x);
  if (threadIdx.x < 32)
    for (int r = 0; r < 10; ++r) v += tile.shfl_xor(v, 1u + r % 16);
  out[threadIdx.x] = v;
}

TEST(WarpScheduling, AWarpCollectiveWaitsOnlyForItsWarp) {
  cohort_test::virtual_device_guard guard;
  set_warp_size(32);
  cg::device_buffer<int> out(256);
  cg::launch(only_warp_zero_shuffles, {dim3(1), dim3(256)}, out.data());
  EXPECT_EQ(cohort::host::last_launch_statistics().fibers_started, 32u);
  const auto got = out.to_host();
  for (unsigned t = 32; t < 256; ++t) EXPECT_EQ(got[t], static_cast<int>(t));
}

// Warps shuffling between block barriers: a shuffle completes while threads
// of other warps wait at the barrier, and its woken lanes resume through the
// barrier's queue (scheduler.hpp) while the barrier's own threads wait in it.
// A block of 200 threads: the last warp has 8 lanes, and a shuffle from a
// lane the block does not have leaves the caller its own value.
constexpr unsigned mixed_threads = 200, mixed_rounds = 5;
__global__ void shuffles_between_barriers(const unsigned* in, unsigned* out) {
  __shared__ unsigned exchanged[mixed_threads];
  const unsigned t = threadIdx.x, first = blockIdx.x * mixed_threads;
  unsigned v = in[first + t];
  for (unsigned r = 0; r < mixed_rounds; ++r) {
    for (int step = 1; step < 32; step *= 2) v += __shfl_xor_sync(0xffffffffu, v, step) * (step + 1u);
    exchanged[t] = v;
    __syncthreads();
    v ^= exchanged[(t + 37 * (r + 1)) % mixed_threads];
    __syncthreads();
  }
  out[first + t] = v;
}

std::vector<unsigned> shuffles_between_barriers_on_the_host(std::vector<unsigned> v) {
  for (unsigned r = 0; r < mixed_rounds; ++r) {
    for (unsigned step = 1; step < 32; step *= 2) {
      std::vector<unsigned> next = v;
      for (unsigned t = 0; t < mixed_threads; ++t) {
        const unsigned source = t ^ step;
        next[t] = v[t] + (source < mixed_threads ? v[source] : v[t]) * (step + 1);
      }
      v = next;
    }
    std::vector<unsigned> mixed = v;
    for (unsigned t = 0; t < mixed_threads; ++t) mixed[t] = v[t] ^ v[(t + 37 * (r + 1)) % mixed_threads];
    v = mixed;
  }
  return v;
}

TEST(WarpScheduling, ShufflesBetweenBlockBarriersReadTheirPartnersValues) {
  cohort_test::virtual_device_guard guard;
  set_warp_size(32);
  constexpr unsigned blocks = 3;
  const auto input = cohort_test::random_vector<unsigned>(blocks * mixed_threads, cohort_test::test_seed(), 0u, ~0u);
  std::vector<unsigned> expected;
  for (unsigned b = 0; b < blocks; ++b) {
    const auto block = shuffles_between_barriers_on_the_host(
        std::vector<unsigned>(input.begin() + b * mixed_threads, input.begin() + (b + 1) * mixed_threads));
    expected.insert(expected.end(), block.begin(), block.end());
  }
  const cg::device_buffer<unsigned> in(input);
  for (int launch = 0; launch < 3; ++launch) {
    auto out = cohort_test::poisoned<unsigned>(input.size(), 0x7eadbeefu);
    cg::launch(shuffles_between_barriers, {dim3(blocks), dim3(mixed_threads)}, static_cast<const unsigned*>(in.data()),
               out.data());
    EXPECT_EQ(out.to_host(), expected) << "launch " << launch;
  }
}

// A thread fails right after a shuffle, while the lanes it woke may still
// wait to resume: every lane's frames are unwound (their destructors run)
// and the next launch runs whole.
std::atomic<int> lanes_unwound{0};
struct counts_its_unwinding {
  ~counts_its_unwinding() { lanes_unwound.fetch_add(1); }
};
__global__ void lane_fails_after_the_shuffle(int* out) {
  const counts_its_unwinding guard;
  const int v = __shfl_xor_sync(0xffffffffu, static_cast<int>(threadIdx.x), 1);
  if (threadIdx.x == 31) throw std::runtime_error("lane 31 failed after the shuffle");
  __syncthreads();
  out[threadIdx.x] = v;
}

TEST(WarpScheduling, AFailureAfterAShuffleUnwindsEveryLane) {
  cohort_test::virtual_device_guard guard;
  set_warp_size(32);
  auto out = cohort_test::poisoned<int>(32, -1);
  lanes_unwound = 0;
  const cg::error e =
      cohort_test::launch_error([&] { cg::launch(lane_fails_after_the_shuffle, {dim3(1), dim3(32)}, out.data()); });
  EXPECT_EQ(e.kind(), cg::errc::kernel_exception);
  EXPECT_THAT(e.what(), ::testing::HasSubstr("lane 31 failed after the shuffle"));
  EXPECT_EQ(lanes_unwound.load(), 32);
  cg::launch(only_warp_zero_shuffles, {dim3(1), dim3(32)}, out.data());
  const auto got = out.to_host();
  for (int t = 0; t < 32; ++t) EXPECT_NE(got[t], -1) << t;
}

// The host's grouping rule: lanes reaching one call site while the rest of
// the warp waits elsewhere or has left.
__device__ unsigned group_here() { return cg::coalesced_threads().num_threads(); }

__global__ void one_site_from_two_branches(unsigned* out) {
  if (threadIdx.x % 3 == 0)
    out[threadIdx.x] = group_here();
  else
    out[threadIdx.x] = group_here() + 100;
}

__global__ void lanes_that_shuffled_first(unsigned* out) {
  const auto tile = cg::tiled_partition<16>(cg::this_thread_block());
  if (threadIdx.x >= 16) tile.sync();
  out[threadIdx.x] = cg::coalesced_threads().num_threads();
}

__global__ void others_at_a_barrier(unsigned* out) {
  if (threadIdx.x % 32 < 8) out[threadIdx.x] = cg::coalesced_threads().num_threads();
  __syncthreads();
}

TEST(CoalescedRule, LanesAtOneCallSiteGroupWhileTheRestWaitElsewhere) {
  cg::device_buffer<unsigned> out(64);
  // One call site, reached from both branches: a single group (a GPU may
  // keep the branches apart; the host groups by call site).
  cg::launch(one_site_from_two_branches, {dim3(1), dim3(64)}, out.data());
  for (unsigned t = 0; t < 64; ++t) EXPECT_EQ(out.to_host()[t], t % 3 == 0 ? 32u : 132u) << t;
  // Lanes released from another collective rejoin before the group forms.
  cg::launch(lanes_that_shuffled_first, {dim3(1), dim3(64)}, out.data());
  for (unsigned v : out.to_host()) EXPECT_EQ(v, 32u);
  // Lanes parked at a block barrier are elsewhere.
  out.fill(0);
  cg::launch(others_at_a_barrier, {dim3(1), dim3(64)}, out.data());
  for (unsigned t = 0; t < 64; ++t) EXPECT_EQ(out.to_host()[t], t % 32 < 8 ? 8u : 0u) << t;
}

// A loop whose trip count differs by lane, with coalesced_threads() (or
// __activemask()) inside: the lanes that leave it first wait after it while
// the others go round, and the warp regroups after the loop whole, as a GPU
// reconverges there. (Every site's group formed at once grouped the lanes
// after the loop by trip count, 8 and 8, though docs/warp-level.md said such
// code reconverges.) Inside, each round's group is the lanes still looping.
__global__ void regroups_after_a_divergent_loop(unsigned* out, unsigned* inside) {
  const unsigned lane = threadIdx.x % 32;
  for (unsigned i = 0; i < lane % 4; ++i) {
    const cg::coalesced_group round = cg::coalesced_threads();
    inside[threadIdx.x * 3 + i] = round.num_threads();
    round.sync();
  }
  out[threadIdx.x] = cg::coalesced_threads().num_threads();
}
__global__ void active_mask_after_a_divergent_loop(unsigned* out) {
  const unsigned lane = threadIdx.x % 32;
  for (unsigned i = 0; i < lane % 8; ++i) __syncwarp(static_cast<unsigned>(__activemask()));
  out[threadIdx.x] = static_cast<unsigned>(__popc(static_cast<unsigned>(__activemask())));
}

TEST(CoalescedRule, AWarpRegroupsWholeAfterADivergentLoop) {
  cg::device_buffer<unsigned> out(64), inside(std::vector<unsigned>(64 * 3, 0));
  for (const char* schedule : {"ordered", "shuffle:1", "shuffle:2"}) {
    const cohort_test::scoped_env order("COHORT_SCHEDULE", schedule);
    cg::launch(regroups_after_a_divergent_loop, {dim3(1), dim3(64)}, out.data(), inside.data());
    EXPECT_EQ(out.to_host(), std::vector<unsigned>(64, 32u)) << schedule;
    const auto rounds = inside.to_host();
    for (unsigned t = 0; t < 64; ++t)
      for (unsigned i = 0; i < t % 32 % 4; ++i) EXPECT_EQ(rounds[t * 3 + i], 8u * (3 - i)) << schedule << " " << t;
    cg::launch(active_mask_after_a_divergent_loop, {dim3(1), dim3(64)}, out.data());
    EXPECT_EQ(out.to_host(), std::vector<unsigned>(64, 32u)) << schedule;
  }
}

// Lanes are ranked by their linear rank in the block, whatever its shape.
__global__ void groups_in_a_3d_block(unsigned* out) {
  const unsigned t = cg::this_thread_block().thread_rank();
  if (t % 5 != 0) {
    const cg::coalesced_group g = cg::coalesced_threads();
    out[t] = g.thread_rank() * 1000 + g.num_threads();
  }
}

TEST(CoalescedRule, LanesOfA3dBlockFollowTheLinearRank) {
  auto out = cohort_test::poisoned<unsigned>(96, 0xDEADBEEF);
  cg::launch(groups_in_a_3d_block, {dim3(1), dim3(4, 8, 3)}, out.data());
  const auto got = out.to_host();
  for (unsigned t = 0; t < 96; ++t) {
    const unsigned base = t / 32 * 32;
    unsigned rank = 0, size = 0;
    for (unsigned l = base; l < base + 32; ++l)
      if (l % 5 != 0) {
        rank += l < t;
        ++size;
      }
    EXPECT_EQ(got[t], t % 5 == 0 ? 0xDEADBEEFu : rank * 1000 + size) << t;
  }
}

// The seed's discovery pattern, written with the intrinsics.
__device__ int atomic_aggregated_increment(int* p) {
  unsigned int writemask = static_cast<unsigned int>(__activemask());
  unsigned int total = static_cast<unsigned int>(__popc(writemask));
  unsigned int prefix = static_cast<unsigned int>(__popc(writemask & static_cast<unsigned int>(__lanemask_lt())));
  // Find the lowest-numbered active lane
  int elected_lane = __ffs(static_cast<int>(writemask)) - 1;
  int base_offset = 0;
  if (prefix == 0) {
    base_offset = atomicAdd(p, static_cast<int>(total));
  }
  base_offset = __shfl_sync(writemask, base_offset, elected_lane);
  int thread_offset = static_cast<int>(prefix) + base_offset;
  return thread_offset;
}

__global__ void compact_odd(const int* in, int n, int* out, int* count) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n && in[i] % 2 != 0) out[atomic_aggregated_increment(count)] = in[i];
}

TEST(CoalescedRule, TheSeedsDiscoveryPatternWithIntrinsics) {
  const int n = 3000;
  const auto in = cohort_test::random_vector<int>(n, cohort_test::test_seed(), 0, 1000);
  cg::device_buffer<int> d_in(in), count(std::vector<int>{0});
  auto out = cohort_test::poisoned<int>(n, -1);
  cg::launch(compact_odd, {dim3((n + 127) / 128), dim3(128)}, d_in.data(), n, out.data(), count.data());
  std::vector<int> expected;
  for (int v : in)
    if (v % 2 != 0) expected.push_back(v);
  auto got = out.to_host();
  got.resize(static_cast<size_t>(count.to_host()[0]));
  std::sort(got.begin(), got.end());
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(got, expected);
}

// Intrinsics follow PTX: lanes that exited, or that a short warp lacks, are
// not waited for; a shuffle source that a short warp lacks leaves the caller
// its own value. (A source lane that exists but takes no part is an error:
// misuse_catalogue.cpp.)
__global__ void after_lanes_leave(unsigned long long* out) {
  const unsigned lane = threadIdx.x % 32;
  if (lane >= 20) return;
  unsigned long long* o = out + threadIdx.x * 4;
  o[0] = __ballot_sync(0xFFFFFFFFu, 1);
  __syncwarp();
  // Warp 1 has 16 lanes: its lanes read lane 17, which it lacks; warp 0's read lane 17.
  o[1] = __shfl_sync(0x000FFFFFu, static_cast<unsigned long long>(lane), 17);
  // Lanes 0-15 read lane 15 of their own shuffle, 16-19 lane 18 of theirs.
  o[2] = __shfl_sync(lane < 16 ? 0x0000FFFFu : 0x000F0000u, 100ull + lane, lane < 16 ? 15 : 18);
  o[3] = static_cast<unsigned long long>(__all_sync(0xFFFFFFFFu, lane < 20));
}

TEST(IntrinsicRules, ExitedAndMissingLanesAreNotWaitedFor) {
  cohort_test::virtual_device_guard guard;
  set_warp_size(32);
  auto out = cohort_test::poisoned<unsigned long long>(48 * 4, 7);
  cg::launch(after_lanes_leave, {dim3(1), dim3(48)}, out.data());  // warp 1 has 16 lanes
  const auto got = out.to_host();
  for (unsigned t = 0; t < 48; ++t) {
    const unsigned lane = t % 32;
    const unsigned long long* o = &got[t * 4];
    if (lane >= 20) continue;
    EXPECT_EQ(o[0], t < 32 ? 0xFFFFFull : 0xFFFFull) << t;
    EXPECT_EQ(o[1], t < 32 ? 17ull : lane) << t;
    EXPECT_EQ(o[2], lane < 16 ? 115ull : 118ull) << t;
    EXPECT_EQ(o[3], 1ull) << t;
  }
}

// sync() is a barrier: members that have exited no longer count, whether
// they left before the others arrived or while they waited.
template <unsigned N>
__global__ void sync_after_exits(unsigned leave_from, unsigned* out) {
  const auto tile = cg::tiled_partition<N>(cg::this_thread_block());
  if (tile.thread_rank() >= leave_from) return;
  tile.sync();
  const cg::coalesced_group g = cg::coalesced_threads();
  if (g.thread_rank() % 2 == 1) return;
  g.sync();
  out[threadIdx.x] = tile.thread_rank() + 1;
}

// A warp found whole after a thread of another warp exited says nothing of a
// tile wider than the warp: the tile's sync, opened after warp 0's shuffle
// (warp 1 waits in __syncwarp meanwhile), still counts the exited member out.
__global__ void wide_sync_after_a_warp_shuffle(unsigned gone, unsigned* out) {
  const auto tile = cg::tiled_partition<64>(cg::this_thread_block());
  if (threadIdx.x == gone) return;
  __syncthreads();
  unsigned v = threadIdx.x;
  if (threadIdx.x < 32)
    v = __shfl_xor_sync(0xffffffffu, v, 1);
  else
    __syncwarp();
  tile.sync();
  out[threadIdx.x] = v + 1;
}

TEST(SyncRules, AnExitOutsideAWholeWarpStillCountsForAWideTile) {
  cohort_test::virtual_device_guard guard;
  set_warp_size(32);
  auto out = cohort_test::poisoned<unsigned>(64, 0);
  cg::launch(wide_sync_after_a_warp_shuffle, {dim3(1), dim3(64)}, 40u, out.data());
  for (unsigned t = 0; t < 64; ++t) EXPECT_EQ(out.to_host()[t], t == 40 ? 0u : (t < 32 ? t ^ 1u : t) + 1) << t;
}

TEST(SyncRules, MembersThatExitedDoNotCount) {
  cohort_test::virtual_device_guard guard;
  set_warp_size(32);
  auto out = cohort_test::poisoned<unsigned>(256, 0);
  cg::launch(sync_after_exits<32>, {dim3(1), dim3(256)}, 20u, out.data());
  for (unsigned t = 0; t < 256; ++t) EXPECT_EQ(out.to_host()[t], t % 32 < 20 && t % 2 == 0 ? t % 32 + 1 : 0u) << t;
  EXPECT_NO_THROW(cg::launch(sync_after_exits<128>, {dim3(1), dim3(256)}, 70u, out.data()));
  EXPECT_NO_THROW(cg::launch(sync_after_exits<8>, {dim3(1), dim3(256)}, 0u, out.data()));
}

// The warp of 64: tiles of 64 are one warp, their ballots 64 bits wide.
__global__ void warp_of_64(unsigned long long* out) {
  cg::thread_block my_block = cg::this_thread_block();
  auto my_tile = cg::tiled_partition<64>(my_block);
  const unsigned t = my_block.thread_rank();
  out[t * 4] = 0;
  if (my_tile.meta_group_rank() == 0) {
    out[t * 4] = my_tile.ballot(my_tile.thread_rank() % 3 == 0);
    my_tile.sync();
  }
  out[t * 4 + 1] = static_cast<unsigned long long>(my_tile.shfl_down(static_cast<int>(t), 40));
  out[t * 4 + 2] = cg::labeled_partition(my_tile, t % 48 < 24).num_threads();
  out[t * 4 + 3] = static_cast<unsigned long long>(warpSize) * 1000 + cg::coalesced_threads().num_threads();
}

TEST(WarpSize64, TilesOfSixtyFourAreOneWarp) {
  cohort_test::virtual_device_guard guard;
  set_warp_size(64);
  auto out = cohort_test::poisoned<unsigned long long>(256 * 4, 7);
  cg::launch(warp_of_64, {dim3(1), dim3(256)}, out.data());
  const auto got = out.to_host();
  unsigned long long every_third = 0;
  for (unsigned r = 0; r < 64; r += 3) every_third |= 1ull << r;
  for (unsigned t = 0; t < 256; ++t) {
    const unsigned r = t % 64;
    unsigned same_label = 0;
    for (unsigned k = t - r; k < t - r + 64; ++k) same_label += (k % 48 < 24) == (t % 48 < 24);
    SCOPED_TRACE(t);
    EXPECT_EQ(got[t * 4], t < 64 ? every_third : 0ull);
    EXPECT_EQ(got[t * 4 + 1], r + 40 < 64 ? t + 40 : t);
    EXPECT_EQ(got[t * 4 + 2], same_label);
    EXPECT_EQ(got[t * 4 + 3], 64064ull);
  }
}

// Where CUDA leaves it undefined, a coalesced group takes its source rank
// modulo its size.
__global__ void coalesced_source_past_the_end(int* out) {
  if (threadIdx.x % 4 == 0) {
    const cg::coalesced_group g = cg::coalesced_threads();
    out[threadIdx.x] = g.shfl(static_cast<int>(threadIdx.x), g.num_threads() + 2);
  }
}

TEST(CoalescedRule, SourceRanksWrapAroundTheGroup) {
  auto out = cohort_test::poisoned<int>(32, -1);
  cg::launch(coalesced_source_past_the_end, {dim3(1), dim3(32)}, out.data());
  const auto got = out.to_host();
  for (unsigned t = 0; t < 32; t += 4) EXPECT_EQ(got[t], 8);  // rank 10 % 8 = 2, lane 8
}

template <class T>
__global__ void rotate(T* out) {
  const auto tile = cg::tiled_partition<16>(cg::this_thread_block());
  const T v(static_cast<float>(threadIdx.x), -static_cast<float>(threadIdx.x));
  out[threadIdx.x] = tile.shfl(v, tile.thread_rank() + 1) + tile.shfl_xor(v, 1);
}

TEST(HostTypes, StdComplexShuffles) {
  cg::device_buffer<std::complex<float>> f(64);
  cg::launch(rotate<std::complex<float>>, {dim3(1), dim3(64)}, f.data());
  cg::device_buffer<std::complex<double>> d(64);
  cg::launch(rotate<std::complex<double>>, {dim3(1), dim3(64)}, d.data());
  for (unsigned t = 0; t < 64; ++t) {
    const float next = static_cast<float>(t / 16 * 16 + (t + 1) % 16), partner = static_cast<float>(t ^ 1);
    EXPECT_EQ(f.to_host()[t], std::complex<float>(next + partner, -next - partner)) << t;
    EXPECT_EQ(d.to_host()[t], std::complex<double>(next + partner, -next - partner)) << t;
  }
}

TEST(HostTypes, LaneMaskOperations) {
  cg::lane_mask<128> m;
  EXPECT_TRUE(m.none());
  m.set(0).set(64).set(127);
  EXPECT_EQ(m.count(), 3u);
  EXPECT_TRUE(m.test(64) && m[127] && !m[1]);
  EXPECT_EQ(m.word(1), (1ull << 0) | (1ull << 63));
  m.reset(64);
  EXPECT_EQ(m.count(), 2u);
  EXPECT_EQ((~m).count(), 126u);
  EXPECT_EQ(m & ~m, cg::lane_mask<128>{});
  EXPECT_EQ((m | ~m).count(), 128u);
  EXPECT_EQ((m ^ m).any(), false);
  static_assert(cg::lane_mask<1024>::size() == 1024 && sizeof(cg::lane_mask<1024>) == 128);
}

}  // namespace
