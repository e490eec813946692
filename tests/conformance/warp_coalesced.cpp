// Coalesced groups: coalesced_threads() in divergent branches (the seed's
// lanes 2, 4 and 8; many random active masks), their collectives in rank
// space, and the seed's warp-aggregated atomic increment.
#include <algorithm>
#include <random>

#include "programming_model/model_functions.hpp"
#include "warp_common.hpp"

namespace cg = cohort;
using warp_test::mix;

namespace {

unsigned warp_size() { return static_cast<unsigned>(cg::get_device_attribute(cg::device_attribute::warp_size)); }

unsigned long long low_lanes(unsigned n) { return n >= 64 ? ~0ull : (1ull << n) - 1; }
unsigned popcount(unsigned long long x) { return static_cast<unsigned>(__builtin_popcountll(x)); }
// The lane of rank r in a group of lanes `lanes`.
unsigned lane_of_rank(unsigned long long lanes, unsigned r) {
  for (; r > 0; --r) lanes &= lanes - 1;
  return static_cast<unsigned>(__builtin_ctzll(lanes));
}

__global__ void seed_example(const int* chosen, int* out) {
  // Threads 2, 4 and 8 of each warp should handle the data.
  const unsigned lane = threadIdx.x % warpSize;
  if (lane == static_cast<unsigned>(chosen[0]) || lane == static_cast<unsigned>(chosen[1]) ||
      lane == static_cast<unsigned>(chosen[2])) {
    cg::coalesced_group active = cg::coalesced_threads();
    out[threadIdx.x] = static_cast<int>(active.thread_rank() * 100 + active.num_threads());
    active.sync();
  }
}

TEST(Coalesced, TheSeedsLanesTwoFourAndEightFormAGroupOfThree) {
  cg::device_buffer<int> chosen(std::vector<int>{2, 4, 8});
  auto out = cohort_test::poisoned<int>(256, -1);
  cg::launch(seed_example, {dim3(1), dim3(256)}, chosen.data(), out.data());
  const auto got = out.to_host();
  for (unsigned t = 0; t < 256; ++t) {
    const unsigned lane = t % warp_size();
    const int expected = lane == 2 ? 3 : lane == 4 ? 103 : lane == 8 ? 203 : -1;
    ASSERT_EQ(got[t], expected) << "thread " << t;
  }
}

// The two sides of a branch each form their own group.
__global__ void two_branches(unsigned* out) {
  const unsigned lane = threadIdx.x % warpSize;
  if (lane % 3 == 0) {
    const cg::coalesced_group g = cg::coalesced_threads();
    out[threadIdx.x] = g.num_threads() * 1000 + g.thread_rank();
  } else {
    const cg::coalesced_group g = cg::coalesced_threads();
    out[threadIdx.x] = g.num_threads() * 1000 + g.thread_rank() + 500;
  }
}

TEST(Coalesced, EachSideOfABranchFormsItsOwnGroup) {
  const unsigned w = warp_size(), threads = 128;
  auto out = cohort_test::poisoned<unsigned>(threads, 0xDEADBEEF);
  cg::launch(two_branches, {dim3(1), dim3(threads)}, out.data());
  const auto got = out.to_host();
  const unsigned thirds = (w + 2) / 3;
  for (unsigned t = 0; t < threads; ++t) {
    const unsigned lane = t % w;
    const unsigned expected =
        lane % 3 == 0 ? thirds * 1000 + lane / 3 : (w - thirds) * 1000 + lane - lane / 3 - 1 + 500;
    ASSERT_EQ(got[t], expected) << "thread " << t;
  }
}

constexpr unsigned fields = 14;

// The lanes of `masks[warp]` take the branch and use their coalesced group.
__global__ void branch_collectives(const unsigned long long* masks, unsigned salt, int* out) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned lane = threadIdx.x % warpSize, warp = t / warpSize;
  if ((masks[warp] >> lane) & 1) {
    const cg::coalesced_group g = cg::coalesced_threads();
    const unsigned n = g.num_threads();
    const int v = static_cast<int>(mix(t + salt));
    int* o = out + static_cast<size_t>(t) * fields;
    o[0] = static_cast<int>(n);
    o[1] = static_cast<int>(g.thread_rank());
    o[2] = static_cast<int>(g.meta_group_rank() * 100 + g.meta_group_size());
    o[3] = g.shfl(v, mix(t) % n);
    o[4] = g.shfl_up(v, mix(t + 1) % (n + 1));
    o[5] = g.shfl_down(v, mix(t + 2) % (n + 1));
    o[6] = g.shfl_xor(v, mix(t + 3) % n);
    const unsigned long long ballot = g.ballot(v & 1);
    o[7] = static_cast<int>(ballot & 0xFFFFFFFFu);
    o[8] = static_cast<int>(ballot >> 32);
    o[9] = g.any(v % 5 == 0);
    o[10] = g.all(v % 5 != 0);
    const unsigned long long same = g.match_any(v % 3);
    o[11] = static_cast<int>(same & 0xFFFFFFFFu);
    o[12] = static_cast<int>(same >> 32);
    o[13] = g.shfl(static_cast<int>(lane), 0);
    g.sync();
  }
}

void check_branch(const std::vector<unsigned long long>& masks, unsigned threads, unsigned salt) {
  const unsigned w = warp_size(), blocks = 2;
  cg::device_buffer<unsigned long long> d_masks(masks);
  auto out = cohort_test::poisoned<int>(static_cast<size_t>(blocks) * threads * fields, 0x5EADBEEF);
  cg::launch(branch_collectives, {dim3(blocks), dim3(threads)}, d_masks.data(), salt, out.data());
  const auto got = out.to_host();
  for (unsigned t = 0; t < blocks * threads; ++t) {
    const unsigned lane = t % threads % w, warp = t / w, base = t - lane;
    const unsigned long long lanes = masks[warp] & low_lanes(w);
    const int* o = &got[static_cast<size_t>(t) * fields];
    if (((lanes >> lane) & 1) == 0) {
      ASSERT_EQ(o[0], 0x5EADBEEF) << "thread " << t << " is not in the branch";
      continue;
    }
    const unsigned n = popcount(lanes), r = popcount(lanes & low_lanes(lane));
    const auto value = [&](unsigned rank) { return static_cast<int>(mix(base + lane_of_rank(lanes, rank) + salt)); };
    unsigned long long ballot = 0, same = 0;
    bool any = false, all = true;
    for (unsigned k = 0; k < n; ++k) {
      if (value(k) & 1) ballot |= 1ull << k;
      if (value(k) % 3 == value(r) % 3) same |= 1ull << k;
      any = any || value(k) % 5 == 0;
      all = all && value(k) % 5 != 0;
    }
    SCOPED_TRACE(testing::Message() << "thread " << t << ", mask 0x" << std::hex << lanes);
    ASSERT_EQ(o[0], static_cast<int>(n));
    ASSERT_EQ(o[1], static_cast<int>(r));
    ASSERT_EQ(o[2], 1);  // meta rank 0 of 1
    ASSERT_EQ(o[3], value(warp_test::shfl_source(r, mix(t) % n, n)));
    ASSERT_EQ(o[4], value(warp_test::shfl_up_source(r, mix(t + 1) % (n + 1), n)));
    ASSERT_EQ(o[5], value(warp_test::shfl_down_source(r, mix(t + 2) % (n + 1), n)));
    ASSERT_EQ(o[6], value(warp_test::shfl_xor_source(r, mix(t + 3) % n, n)));
    ASSERT_EQ(o[7], static_cast<int>(ballot & 0xFFFFFFFFu));
    ASSERT_EQ(o[8], static_cast<int>(ballot >> 32));
    ASSERT_EQ(o[9], any ? 1 : 0);
    ASSERT_EQ(o[10], all ? 1 : 0);
    ASSERT_EQ(o[11], static_cast<int>(same & 0xFFFFFFFFu));
    ASSERT_EQ(o[12], static_cast<int>(same >> 32));
    ASSERT_EQ(o[13], static_cast<int>(lane_of_rank(lanes, 0)));
  }
}

TEST(Coalesced, GroupsOfEveryActiveMaskAndTheirCollectives) {
  const unsigned threads = 256, warps = 2 * threads / 32;
  const auto seed = cohort_test::test_seed();
  // Random masks, dense and sparse, then the edge cases.
  std::mt19937_64 random(seed);
  for (unsigned round = 0; round < 4; ++round) {
    std::vector<unsigned long long> masks(warps);
    for (auto& m : masks) m = random();
    if (round == 1)
      for (auto& m : masks) m &= m >> 1 & m >> 2;  // sparse
    if (round == 2)
      for (auto& m : masks) m |= m >> 1 | m << 1;  // dense
    check_branch(masks, threads, static_cast<unsigned>(seed) + round);
  }
  std::vector<unsigned long long> edges = {
      ~0ull, 1ull, 1ull << 31, 1ull << 63, 0ull, 0x5555555555555555ull, 0xAAAAAAAAAAAAAAAAull, 0x8000000100000001ull};
  edges.resize(warps, 0x0000FFFF0000FFFFull);
  check_branch(edges, threads, 7);
}

// Compacts the multiples of 4 of `in` into `out`.
__global__ void filter_multiples_of_four(const int* in, int n, int* out, int* count) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n && in[i] % 4 == 0) out[model_functions::atomicAggInc(count)] = in[i];  // the seed's discovery pattern
}

TEST(Coalesced, WarpAggregatedAtomicIncrement) {
  const int n = 5000;
  const auto in = cohort_test::random_vector<int>(n, cohort_test::test_seed(), 0, 1 << 20);
  cg::device_buffer<int> d_in(in), count(std::vector<int>{0});
  auto out = cohort_test::poisoned<int>(n, -1);
  cg::launch(filter_multiples_of_four, {dim3((n + 255) / 256), dim3(256)}, d_in.data(), n, out.data(), count.data());
  std::vector<int> expected;
  for (int v : in)
    if (v % 4 == 0) expected.push_back(v);
  const int found = count.to_host()[0];
  ASSERT_EQ(found, static_cast<int>(expected.size()));
  auto got = out.to_host();
  got.resize(found);
  std::sort(got.begin(), got.end());
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(got, expected);
}

}  // namespace
