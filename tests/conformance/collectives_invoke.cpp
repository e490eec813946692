// invoke_one and invoke_one_broadcast on every kind of group: the function
// runs once per group, after every member has arrived and before any leaves,
// and the broadcast hands its result to every member.
#include "collectives_common.hpp"

namespace cg = cohort;

namespace {

struct tally {
  int* calls;    // per group: how many times the function ran
  int* arrived;  // per group: members that had arrived when it ran
  int* results;  // per thread: the broadcast value
};

// Every member counts itself in before the call; the function records how
// many had, then hands back something only one member could know.
template <class G>
__device__ void invoke_on(const G& group, unsigned index, unsigned long long g, const tally& t) {
  atomicAdd(t.arrived + 2 * index, 1);
  cg::invoke_one(group, [&] {
    atomicAdd(t.calls + 2 * index, 1);
    t.arrived[2 * index + 1] = t.arrived[2 * index];
  });
  t.results[g] = cg::invoke_one_broadcast(
      group, [&](int base) { return base + atomicAdd(t.calls + 2 * index + 1, 1); }, static_cast<int>(index) * 1000);
}

__global__ void invoke_everywhere(tally tiles, tally coalesced, tally blocks) {
  const cg::thread_block block = cg::this_thread_block();
  const unsigned long long g = blockIdx.x * block.size() + block.thread_rank();
  const auto tile = cg::tiled_partition<16>(block);
  invoke_on(tile, blockIdx.x * tile.meta_group_size() + tile.meta_group_rank(), g, tiles);
  if (block.thread_rank() % warpSize % 2 == 0) {
    const cg::coalesced_group even = cg::coalesced_threads();
    const unsigned warps = (block.size() + warpSize - 1) / warpSize;
    invoke_on(even, blockIdx.x * warps + block.thread_rank() / warpSize, g, coalesced);
  }
  invoke_on(block, blockIdx.x, g, blocks);
}

TEST(InvokeOne, RunsOncePerGroupWithEveryMemberPresent) {
  const unsigned blocks = 3, threads = 120, total = blocks * threads, w = coll_test::warp_size();
  const unsigned per_block = (threads + w - 1) / w;
  const unsigned tiles = blocks * ((threads + 15) / 16), warps = blocks * per_block;
  cg::device_buffer<int> tile_calls(2 * tiles), tile_arrived(2 * tiles), coalesced_calls(2 * warps),
      coalesced_arrived(2 * warps), block_calls(2 * blocks), block_arrived(2 * blocks);
  for (auto* b : {&tile_calls, &tile_arrived, &coalesced_calls, &coalesced_arrived, &block_calls, &block_arrived})
    b->fill(0);
  auto tile_results = cohort_test::poisoned<int>(total, -1), coalesced_results = cohort_test::poisoned<int>(total, -1),
       block_results = cohort_test::poisoned<int>(total, -1);
  cg::launch(invoke_everywhere, {dim3(blocks), dim3(threads)},
             tally{tile_calls.data(), tile_arrived.data(), tile_results.data()},
             tally{coalesced_calls.data(), coalesced_arrived.data(), coalesced_results.data()},
             tally{block_calls.data(), block_arrived.data(), block_results.data()});
  const auto check = [&](const char* kind, const cg::device_buffer<int>& calls, const cg::device_buffer<int>& arrived,
                         const cg::device_buffer<int>& results, unsigned groups, auto index_of, auto size_of) {
    SCOPED_TRACE(kind);
    const auto c = calls.to_host(), a = arrived.to_host(), r = results.to_host();
    for (unsigned i = 0; i < groups; ++i) {
      const unsigned size = size_of(i);
      if (size == 0) continue;
      ASSERT_EQ(c[2 * i], 1) << "invoke_one ran once in group " << i;
      ASSERT_EQ(a[2 * i + 1], static_cast<int>(size)) << "every member had arrived in group " << i;
      ASSERT_EQ(c[2 * i + 1], 1) << "invoke_one_broadcast ran once in group " << i;
    }
    for (unsigned g = 0; g < total; ++g) {
      const long long i = index_of(g);
      ASSERT_EQ(r[g], i < 0 ? -1 : static_cast<int>(i) * 1000) << "thread " << g;
    }
  };
  check(
      "tiles", tile_calls, tile_arrived, tile_results, tiles,
      [&](unsigned g) { return static_cast<long long>(g / threads * ((threads + 15) / 16) + g % threads / 16); },
      [&](unsigned i) { return std::min(16u, threads - i % ((threads + 15) / 16) * 16); });
  check(
      "coalesced groups", coalesced_calls, coalesced_arrived, coalesced_results, warps,
      [&](unsigned g) {
        return g % threads % w % 2 == 0 ? static_cast<long long>(g / threads * per_block + g % threads / w) : -1;
      },
      [&](unsigned i) { return (std::min(w, threads - i % per_block * w) + 1) / 2; });
  check(
      "blocks", block_calls, block_arrived, block_results, blocks,
      [&](unsigned g) { return static_cast<long long>(g / threads); }, [&](unsigned) { return threads; });
}

}  // namespace
