// The groups' API as NVIDIA's cooperative groups has it, where a ported
// program depends on it: thread_group is the base of every group (a
// thread_group& binds to any), get_type() with NVIDIA's ids, the thread_scope
// members, a tile's static meta ranks,
// this_thread()'s meta rank, the grid's thread extent and index, and
// labeled_partition with bool and pointer labels.
#include <type_traits>

#include "warp_common.hpp"

namespace cg = cohort;

namespace {

static_assert(std::is_base_of_v<cg::thread_group, cg::thread_block>);
static_assert(std::is_base_of_v<cg::thread_group, cg::grid_group>);
static_assert(std::is_base_of_v<cg::thread_group, cg::thread_block_tile<32>>);
static_assert(std::is_base_of_v<cg::thread_group, cg::thread_block_tile<8, cg::thread_block>>);
static_assert(std::is_base_of_v<cg::thread_group, cg::thread_block_tile<128>>);
static_assert(std::is_base_of_v<cg::thread_group, cg::coalesced_group>);
static_assert(std::is_base_of_v<cg::thread_group, cg::cluster_group>);
static_assert(std::is_base_of_v<cg::thread_group, cg::multi_grid_group>);
static_assert(cg::multi_grid_group::thread_scope == cg::thread_scope_system);
static_assert(cg::thread_group::thread_scope == cg::thread_scope_device);
static_assert(cg::thread_block::thread_scope == cg::thread_scope_block);
static_assert(cg::grid_group::thread_scope == cg::thread_scope_device);
static_assert(cg::thread_block_tile<32>::thread_scope == cg::thread_scope_block);
static_assert(cg::coalesced_group::thread_scope == cg::thread_scope_block);
static_assert(std::is_class_v<cg::grid_group::arrival_token> && std::is_class_v<cg::thread_block::arrival_token>);
static_assert(cg::thread_block_id == 4 && cg::grid_group_id == 3 && cg::coalesced_group_id == 1 &&
              cg::multi_tile_group_id == 5 && cg::multi_grid_group_id == 2 && cg::cluster_group_id == 6);

constexpr unsigned fields = 4;

// Through a non-const thread_group&, as NVIDIA's base class lets code take any group.
__device__ void report(cg::thread_group& g, unsigned* o) {
  g.sync();
  o[0] = static_cast<unsigned>(g.thread_rank());
  o[1] = static_cast<unsigned>(g.num_threads());
  const unsigned type = g.get_type();  // NVIDIA's get_type() is an unsigned id
  o[2] = type;
}

__global__ void through_base(unsigned* out) {
  cg::thread_block block = cg::this_thread_block();
  const unsigned t = block.thread_rank(), threads = block.num_threads();
  auto slot = [&](unsigned k) { return out + ((blockIdx.x * 7ull + k) * threads + t) * fields; };
  report(block, slot(0));
  cg::grid_group grid = cg::this_grid();
  report(grid, slot(1));
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  report(warp, slot(2));
  auto wide = cg::tiled_partition<128>(block);
  report(wide, slot(3));
  if (t % 3 != 0) {
    cg::coalesced_group some = cg::coalesced_threads();
    report(some, slot(4));
  }
  cg::thread_group dynamic = cg::tiled_partition(block, 64);
  report(dynamic, slot(5));
  // A tile's place read statically off its parent type.
  constexpr unsigned quad_size = 4;
  unsigned ranks[quad_size] = {};
  ranks[0] = decltype(cg::tiled_partition<4>(warp))::meta_group_rank();
  slot(6)[0] = ranks[0];
  slot(6)[1] = decltype(cg::tiled_partition<4>(warp))::meta_group_size();
  slot(6)[2] = cg::tiled_partition<4>(warp).meta_group_rank();
  slot(6)[3] = cg::this_thread().meta_group_rank() * 10 + cg::this_thread().meta_group_size();
}

TEST(GroupsAsNvidias, AThreadGroupReferenceBindsToEveryGroupAndDispatchesToIt) {
  const unsigned threads = 256, blocks = 2;
  auto out = cohort_test::poisoned<unsigned>(7 * threads * fields * blocks, 0xDEADBEEF);
  cg::launch_cooperative(through_base, {dim3(blocks), dim3(threads)}, out.data());
  const auto got = out.to_host();
  const unsigned w = static_cast<unsigned>(cg::get_device_attribute(cg::device_attribute::warp_size));
  for (unsigned b = 0; b < blocks; ++b)
    for (unsigned t = 0; t < threads; ++t) {
      auto at = [&](unsigned k) { return &got[((b * 7ull + k) * threads + t) * fields]; };
      SCOPED_TRACE(testing::Message() << "block " << b << ", thread " << t);
      EXPECT_EQ(at(0)[0], t);
      EXPECT_EQ(at(0)[1], threads);
      EXPECT_EQ(at(0)[2], 4u);
      EXPECT_EQ(at(1)[0], b * threads + t);
      EXPECT_EQ(at(1)[1], threads * blocks);
      EXPECT_EQ(at(1)[2], 3u);
      EXPECT_EQ(at(2)[0], t % 32);
      EXPECT_EQ(at(2)[1], 32u);
      EXPECT_EQ(at(2)[2], 1u);
      EXPECT_EQ(at(3)[0], t % 128);
      EXPECT_EQ(at(3)[1], 128u);
      EXPECT_EQ(at(3)[2], 5u);
      if (t % 3 != 0) {
        // The lanes of t's warp that are not multiples of 3, ranked in lane order.
        const unsigned base = t / w * w;
        unsigned rank = 0, count = 0;
        for (unsigned l = base; l < base + w; ++l) {
          if (l % 3 == 0) continue;
          rank += l < t;
          ++count;
        }
        EXPECT_EQ(at(4)[0], rank);
        EXPECT_EQ(at(4)[1], count);
        EXPECT_EQ(at(4)[2], 1u);
      } else {
        EXPECT_EQ(at(4)[0], 0xDEADBEEFu);
      }
      EXPECT_EQ(at(5)[0], t % 64);
      EXPECT_EQ(at(5)[1], 64u);
      EXPECT_EQ(at(5)[2], 5u);
      EXPECT_EQ(at(6)[0], t % 32 / 4);
      EXPECT_EQ(at(6)[1], 8u);
      EXPECT_EQ(at(6)[2], t % 32 / 4);
      EXPECT_EQ(at(6)[3], 1u);  // this_thread(): meta rank 0 of 1
    }
}

__global__ void grid_extent(unsigned* out) {
  const cg::grid_group grid = cg::this_grid();
  const dim3 index = grid.thread_index(), extent = grid.dim_threads();
  unsigned* o = out + grid.thread_rank() * 6;
  o[0] = index.x;
  o[1] = index.y;
  o[2] = index.z;
  o[3] = extent.x;
  o[4] = extent.y;
  o[5] = extent.z;
}

TEST(GroupsAsNvidias, TheGridHasAThreadExtentAndAThreadIndexPerDimension) {
  const dim3 blocks(3, 2, 2), block(8, 3, 2);
  const unsigned per_block = 8 * 3 * 2, total = 12 * per_block;
  auto out = cohort_test::poisoned<unsigned>(total * 6, 0xDEADBEEF);
  cg::launch(grid_extent, {blocks, block}, out.data());
  const auto got = out.to_host();
  for (unsigned bz = 0; bz < 2; ++bz)
    for (unsigned by = 0; by < 2; ++by)
      for (unsigned bx = 0; bx < 3; ++bx)
        for (unsigned z = 0; z < 2; ++z)
          for (unsigned y = 0; y < 3; ++y)
            for (unsigned x = 0; x < 8; ++x) {
              const unsigned rank = ((bz * 2 + by) * 3 + bx) * per_block + (z * 3 + y) * 8 + x;
              const unsigned* o = &got[rank * 6];
              SCOPED_TRACE(testing::Message() << "grid rank " << rank);
              EXPECT_EQ(o[0], bx * 8 + x);
              EXPECT_EQ(o[1], by * 3 + y);
              EXPECT_EQ(o[2], bz * 2 + z);
              EXPECT_EQ(o[3], 24u);
              EXPECT_EQ(o[4], 6u);
              EXPECT_EQ(o[5], 4u);
            }
}

// labeled_partition(tile, bool) is NVIDIA's binary partition: meta rank =
// the predicate. A pointer label groups the members that pass the same address.
__global__ void bool_and_pointer_labels(const unsigned* preds, unsigned* out) {
  __shared__ unsigned targets[4];
  const cg::thread_block block = cg::this_thread_block();
  const auto tile = cg::tiled_partition<32>(block);
  const unsigned t = block.thread_rank();
  const cg::coalesced_group by_bool = cg::labeled_partition(tile, preds[t] != 0);
  const cg::coalesced_group by_pointer = cg::labeled_partition(tile, &targets[preds[t] % 4]);
  const cg::coalesced_group by_integer = cg::labeled_partition(tile, preds[t] % 4);
  unsigned* o = out + t * 5;
  o[0] = by_bool.meta_group_rank();
  o[1] = by_bool.meta_group_size();
  o[2] = by_bool.num_threads();
  o[3] = by_pointer.num_threads() * 1000 + by_pointer.thread_rank();
  o[4] = by_integer.num_threads() * 1000 + by_integer.thread_rank();
}

TEST(GroupsAsNvidias, LabeledPartitionRanksBoolLabelsByThePredicateAndTakesPointerLabels) {
  const unsigned threads = 128;
  const auto seed = static_cast<unsigned>(cohort_test::test_seed());
  std::vector<unsigned> preds(threads);
  for (unsigned t = 0; t < threads; ++t) preds[t] = warp_test::mix(t + seed) % 7;
  for (unsigned t = 32; t < 64; ++t) preds[t] = 2;  // one tile whose predicates all agree
  cg::device_buffer<unsigned> d_preds(preds);
  auto out = cohort_test::poisoned<unsigned>(threads * 5, 0xDEADBEEF);
  cg::launch(bool_and_pointer_labels, {dim3(1), dim3(threads)}, d_preds.data(), out.data());
  const auto got = out.to_host();
  for (unsigned t = 0; t < threads; ++t) {
    const unsigned base = t / 32 * 32;
    unsigned set = 0;
    for (unsigned l = base; l < base + 32; ++l) set += preds[l] != 0;
    const bool split = set != 0 && set != 32, pred = preds[t] != 0;
    SCOPED_TRACE(testing::Message() << "thread " << t << ", seed " << seed);
    EXPECT_EQ(got[t * 5], split ? (pred ? 1u : 0u) : 0u);
    EXPECT_EQ(got[t * 5 + 1], split ? 2u : 1u);
    EXPECT_EQ(got[t * 5 + 2], split ? (pred ? set : 32 - set) : 32u);
    EXPECT_EQ(got[t * 5 + 3], got[t * 5 + 4]);  // the pointer's groups are the integer label's
  }
}

}  // namespace
