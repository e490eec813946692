// Partitions into coalesced groups: labeled_partition (labels of every
// integral type), binary_partition and tiled_partition of a coalesced group,
// from tiles and from coalesced groups under divergent masks, and the
// collectives of the groups they make.
#include <random>

#include "warp_common.hpp"

namespace cg = cohort;
using warp_test::mix;

namespace {

unsigned warp_size() { return static_cast<unsigned>(cg::get_device_attribute(cg::device_attribute::warp_size)); }
unsigned long long low_lanes(unsigned n) { return n >= 64 ? ~0ull : (1ull << n) - 1; }
unsigned popcount(unsigned long long x) { return static_cast<unsigned>(__builtin_popcountll(x)); }

constexpr unsigned fields = 5;

// What each member reports about its new group: size, rank, meta rank and
// size, and the lane of its rank 0 (a shuffle inside the new group).
template <class Group>
__device__ void report(const Group& g, unsigned lane, unsigned* o) {
  o[0] = g.num_threads();
  o[1] = g.thread_rank();
  o[2] = g.meta_group_rank();
  o[3] = g.meta_group_size();
  o[4] = g.shfl(lane, 0);
}

// parent 0: a tile of 16; 1: a tile of 32; 2: the coalesced group of the
// lanes of `masks[warp]`. Labels come from `labels`, truncated to Label.
template <class Label>
__global__ void labeled(const unsigned long long* masks, const unsigned* labels, unsigned parent, unsigned* out) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x % warpSize;
  const Label label = static_cast<Label>(labels[t]);
  unsigned* o = out + static_cast<size_t>(t) * fields;
  if (parent == 0) report(cg::labeled_partition(cg::tiled_partition<16>(cg::this_thread_block()), label), lane, o);
  if (parent == 1) report(cg::labeled_partition(cg::tiled_partition<32>(cg::this_thread_block()), label), lane, o);
  if (parent == 2 && ((masks[t / warpSize] >> lane) & 1))
    report(cg::labeled_partition(cg::coalesced_threads(), label), lane, o);
}

// The lanes of the parent that holds `lane`.
unsigned long long parent_lanes(unsigned parent, unsigned lane, unsigned long long mask, unsigned w) {
  if (parent == 2) return mask & low_lanes(w);
  const unsigned size = parent == 0 ? 16 : 32;
  return low_lanes(size) << (lane / size * size);
}

// Groups of equal keys, ranked by their lowest lane; bool keys, as NVIDIA
// ranks them, by the key (a binary partition) when the parent splits.
void check_groups(const std::vector<unsigned>& got, unsigned threads, unsigned parent,
                  const std::vector<unsigned long long>& masks, const std::vector<unsigned long long>& keys,
                  bool ranked_by_key) {
  const unsigned w = warp_size();
  for (unsigned t = 0; t < threads; ++t) {
    const unsigned lane = t % w, base = t - lane;
    const unsigned long long lanes = parent_lanes(parent, lane, masks[t / w], w);
    const unsigned* o = &got[static_cast<size_t>(t) * fields];
    if (((lanes >> lane) & 1) == 0) {
      ASSERT_EQ(o[0], 0xDEADBEEFu) << "thread " << t;
      continue;
    }
    unsigned long long group = 0, leaders = 0, seen_leader_of = 0;
    for (unsigned l = 0; l < 64; ++l) {
      if (((lanes >> l) & 1) == 0) continue;
      if (keys[base + l] == keys[t]) group |= 1ull << l;
      bool first = true;
      for (unsigned k = 0; k < l; ++k)
        if (((lanes >> k) & 1) && keys[base + k] == keys[base + l]) first = false;
      if (first) leaders |= 1ull << l;
    }
    seen_leader_of = leaders & low_lanes(static_cast<unsigned>(__builtin_ctzll(group)));
    SCOPED_TRACE(testing::Message() << "parent " << parent << ", thread " << t);
    ASSERT_EQ(o[0], popcount(group));
    ASSERT_EQ(o[1], popcount(group & low_lanes(lane)));
    ASSERT_EQ(o[2], ranked_by_key && popcount(leaders) == 2 ? keys[t] : popcount(seen_leader_of));
    ASSERT_EQ(o[3], popcount(leaders));
    ASSERT_EQ(o[4], static_cast<unsigned>(__builtin_ctzll(group)));
  }
}

template <class Label>
void check_labeled(unsigned salt, unsigned kinds) {
  const unsigned threads = 256;
  std::mt19937_64 random(salt);
  std::vector<unsigned long long> masks(threads / 32);
  for (auto& m : masks) m = random() | random();
  std::vector<unsigned> labels(threads);
  std::vector<unsigned long long> keys(threads);
  for (unsigned t = 0; t < threads; ++t) {
    labels[t] = mix(t + salt) % kinds * 0x01010101u + (mix(t) % kinds == 0 ? 0x80000000u : 0);
    keys[t] = static_cast<unsigned long long>(static_cast<Label>(labels[t]));
  }
  cg::device_buffer<unsigned long long> d_masks(masks);
  cg::device_buffer<unsigned> d_labels(labels);
  for (unsigned parent = 0; parent < 3; ++parent) {
    auto out = cohort_test::poisoned<unsigned>(threads * fields, 0xDEADBEEF);
    cg::launch(labeled<Label>, {dim3(1), dim3(threads)}, d_masks.data(), d_labels.data(), parent, out.data());
    check_groups(out.to_host(), threads, parent, masks, keys, std::is_same_v<Label, bool>);
  }
}

template <class T>
class LabeledPartition : public ::testing::Test {};
using label_types = ::testing::Types<char, signed char, unsigned char, short, unsigned short, int, unsigned, long,
                                     long long, unsigned long long, bool>;
TYPED_TEST_SUITE(LabeledPartition, label_types);

TYPED_TEST(LabeledPartition, EqualLabelsFormAGroupRankedByItsLowestLane) {
  const auto seed = static_cast<unsigned>(cohort_test::test_seed());
  for (unsigned kinds : {1u, 2u, 3u, 7u, 40u}) check_labeled<TypeParam>(seed + kinds, kinds);
}

// binary_partition: meta rank = the predicate and meta size 2 when the
// parent splits; the whole parent, 0 of 1, when every predicate agrees.
__global__ void binary(const unsigned long long* masks, const unsigned* preds, unsigned parent, unsigned* out) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x % warpSize;
  const bool pred = preds[t] != 0;
  unsigned* o = out + static_cast<size_t>(t) * fields;
  if (parent == 0) report(cg::binary_partition(cg::tiled_partition<16>(cg::this_thread_block()), pred), lane, o);
  if (parent == 1) report(cg::binary_partition(cg::tiled_partition<32>(cg::this_thread_block()), pred), lane, o);
  if (parent == 2 && ((masks[t / warpSize] >> lane) & 1))
    report(cg::binary_partition(cg::coalesced_threads(), pred), lane, o);
}

TEST(BinaryPartition, MetaRankIsThePredicate) {
  const unsigned threads = 256, w = warp_size();
  const auto seed = cohort_test::test_seed();
  std::mt19937_64 random(seed);
  for (unsigned round = 0; round < 4; ++round) {
    std::vector<unsigned long long> masks(threads / 32);
    for (auto& m : masks) m = random();
    std::vector<unsigned> preds(threads);
    // Round 3: every predicate of a warp agrees.
    for (unsigned t = 0; t < threads; ++t) preds[t] = round == 3 ? (t / w) % 2 : static_cast<unsigned>(random() % 2);
    cg::device_buffer<unsigned long long> d_masks(masks);
    cg::device_buffer<unsigned> d_preds(preds);
    for (unsigned parent = 0; parent < 3; ++parent) {
      auto out = cohort_test::poisoned<unsigned>(threads * fields, 0xDEADBEEF);
      cg::launch(binary, {dim3(1), dim3(threads)}, d_masks.data(), d_preds.data(), parent, out.data());
      const auto got = out.to_host();
      for (unsigned t = 0; t < threads; ++t) {
        const unsigned lane = t % w, base = t - lane;
        const unsigned long long lanes = parent_lanes(parent, lane, masks[t / w], w);
        const unsigned* o = &got[static_cast<size_t>(t) * fields];
        if (((lanes >> lane) & 1) == 0) continue;
        unsigned long long set = 0;
        for (unsigned l = 0; l < 64; ++l)
          if (((lanes >> l) & 1) && preds[base + l]) set |= 1ull << l;
        const bool split = set != 0 && set != lanes;
        const unsigned long long group = !split ? lanes : preds[t] ? set : lanes & ~set;
        SCOPED_TRACE(testing::Message() << "round " << round << ", parent " << parent << ", thread " << t);
        ASSERT_EQ(o[0], popcount(group));
        ASSERT_EQ(o[1], popcount(group & low_lanes(lane)));
        ASSERT_EQ(o[2], split ? preds[t] : 0u);
        ASSERT_EQ(o[3], split ? 2u : 1u);
        ASSERT_EQ(o[4], static_cast<unsigned>(__builtin_ctzll(group)));
      }
    }
  }
}

// tiled_partition of a coalesced group: runs of `size` ranks, the last one
// short; a group no larger than `size` stays as it is.
__global__ void coalesced_tiles(const unsigned long long* masks, unsigned size, unsigned* out) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x % warpSize;
  if ((masks[t / warpSize] >> lane) & 1) {
    const cg::coalesced_group g = cg::coalesced_threads();
    report(cg::tiled_partition(g, size), lane, out + static_cast<size_t>(t) * fields);
  }
}

TEST(CoalescedTiles, RunsOfRanks) {
  const unsigned threads = 256, w = warp_size();
  std::mt19937_64 random(cohort_test::test_seed());
  std::vector<unsigned long long> masks(threads / 32);
  for (auto& m : masks) m = random();
  masks[0] = ~0ull;
  masks[1] = 0x11ull;
  cg::device_buffer<unsigned long long> d_masks(masks);
  for (unsigned size : {1u, 2u, 4u, 8u, 16u, 32u, 64u}) {
    auto out = cohort_test::poisoned<unsigned>(threads * fields, 0xDEADBEEF);
    cg::launch(coalesced_tiles, {dim3(1), dim3(threads)}, d_masks.data(), size, out.data());
    const auto got = out.to_host();
    for (unsigned t = 0; t < threads; ++t) {
      const unsigned lane = t % w;
      const unsigned long long lanes = masks[t / w] & low_lanes(w);
      if (((lanes >> lane) & 1) == 0) continue;
      const unsigned n = popcount(lanes), r = popcount(lanes & low_lanes(lane));
      unsigned long long tile = 0;
      unsigned rank = 0;
      for (unsigned l = 0; l < 64; ++l)
        if ((lanes >> l) & 1) {
          if (n <= size || rank / size == r / size) tile |= 1ull << l;
          ++rank;
        }
      const unsigned* o = &got[static_cast<size_t>(t) * fields];
      SCOPED_TRACE(testing::Message() << "tile size " << size << ", thread " << t);
      ASSERT_EQ(o[0], popcount(tile));
      ASSERT_EQ(o[1], popcount(tile & low_lanes(lane)));
      ASSERT_EQ(o[2], n <= size ? 0u : r / size);
      ASSERT_EQ(o[3], n <= size ? 1u : (n + size - 1) / size);
      ASSERT_EQ(o[4], static_cast<unsigned>(__builtin_ctzll(tile)));
    }
  }
}

}  // namespace
