// Tiles: geometry (ranks, sizes, meta ranks, nested tiles, the type-erased
// forms), synchronization, and the shuffle family for every tile size from 1
// to 1024, every source and delta around the tile's size, 1-D/2-D/3-D blocks
// and partial last tiles.
#include "warp_common.hpp"

namespace cg = cohort;
using warp_test::for_each_tile_size;
using warp_test::mix;
using warp_test::place_in_tile;

namespace {

constexpr unsigned geometry_fields = 10;

template <unsigned N>
__device__ void record_geometry(unsigned* out) {
  const cg::thread_block block = cg::this_thread_block();
  const auto tile = cg::tiled_partition<N>(block);
  const cg::thread_block_tile<N> erased = tile;
  const cg::thread_group group = tile;
  const cg::thread_group dynamic = cg::tiled_partition(block, N);
  out[0] = tile.thread_rank();
  out[1] = tile.num_threads();
  out[2] = tile.meta_group_rank();
  out[3] = tile.meta_group_size();
  out[4] = erased.thread_rank() * 10000 + erased.num_threads();
  out[5] = erased.meta_group_rank() * 10000 + erased.meta_group_size();
  out[6] = static_cast<unsigned>(group.thread_rank());
  out[7] = static_cast<unsigned>(group.num_threads());
  out[8] = static_cast<unsigned>(dynamic.thread_rank());
  out[9] = static_cast<unsigned>(dynamic.size());
}

template <unsigned... N>
__global__ void geometry(unsigned* out) {
  const unsigned threads = blockDim.x * blockDim.y * blockDim.z;
  const unsigned t = cg::this_thread_block().thread_rank();
  const unsigned total = gridDim.x * threads;
  unsigned k = 0;
  ((record_geometry<N>(out + (static_cast<size_t>(k++) * total + blockIdx.x * threads + t) * geometry_fields)), ...);
}

class TileGeometry : public ::testing::TestWithParam<dim3> {};

TEST_P(TileGeometry, RanksSizesAndMetaRanksOfEveryTileSize) {
  const dim3 block = GetParam();
  const unsigned threads = warp_test::threads_of(block), blocks = 2, total = blocks * threads;
  constexpr unsigned sizes[] = {1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024};
  auto out = cohort_test::poisoned<unsigned>(std::size(sizes) * total * geometry_fields, 0xDEADBEEF);
  cg::launch(geometry<1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024>, {dim3(blocks), block}, out.data());
  const auto got = out.to_host();
  for (unsigned k = 0; k < std::size(sizes); ++k) {
    const unsigned n = sizes[k];
    for (unsigned g = 0; g < total; ++g) {
      const unsigned t = g % threads;
      const auto p = place_in_tile(t, n, threads);
      const unsigned* f = &got[(static_cast<size_t>(k) * total + g) * geometry_fields];
      const unsigned meta_size = (threads + n - 1) / n;
      SCOPED_TRACE(testing::Message() << "tile " << n << ", thread " << t);
      ASSERT_EQ(f[0], p.rank);
      ASSERT_EQ(f[1], p.count);
      ASSERT_EQ(f[2], t / n);
      ASSERT_EQ(f[3], meta_size);
      ASSERT_EQ(f[4], p.rank * 10000 + p.count);
      ASSERT_EQ(f[5], t / n * 10000 + meta_size);
      ASSERT_EQ(f[6], p.rank);
      ASSERT_EQ(f[7], p.count);
      ASSERT_EQ(f[8], p.rank);
      ASSERT_EQ(f[9], p.count);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Shapes, TileGeometry,
                         ::testing::Values(dim3(1024), dim3(100), dim3(33, 3), dim3(8, 4, 3), dim3(48), dim3(1)));

// Tiles of tiles, made statically and dynamically, and this_thread().
template <unsigned M, unsigned N>
__device__ void record_nested(unsigned* out) {
  const auto parent = cg::tiled_partition<M>(cg::this_thread_block());
  const auto child = cg::tiled_partition<N>(parent);
  const cg::thread_group dynamic = cg::tiled_partition(cg::thread_group(parent), N);
  out[0] = child.thread_rank();
  out[1] = child.num_threads();
  out[2] = child.meta_group_rank();
  out[3] = child.meta_group_size();
  out[4] = static_cast<unsigned>(dynamic.thread_rank() * 10000 + dynamic.num_threads());
}

__global__ void nested(unsigned* out) {
  const unsigned t = cg::this_thread_block().thread_rank();
  const unsigned threads = blockDim.x * blockDim.y * blockDim.z;
  record_nested<32, 4>(out + (0 * threads + t) * 5);
  record_nested<256, 64>(out + (1 * threads + t) * 5);
  record_nested<64, 64>(out + (2 * threads + t) * 5);
  record_nested<1024, 8>(out + (3 * threads + t) * 5);
  const auto self = cg::this_thread();
  out[(4 * threads + t) * 5] = self.thread_rank() * 10000 + self.num_threads();
  out[(4 * threads + t) * 5 + 1] = self.meta_group_rank();
  out[(4 * threads + t) * 5 + 2] = self.meta_group_size();
}

TEST(Tiles, TilesOfTilesAndThisThread) {
  for (const dim3 block : {dim3(300), dim3(16, 16), dim3(1024)}) {
    const unsigned threads = warp_test::threads_of(block);
    auto out = cohort_test::poisoned<unsigned>(5 * threads * 5, 0xDEADBEEF);
    cg::launch(nested, {dim3(1), block}, out.data());
    const auto got = out.to_host();
    const unsigned pairs[][2] = {{32, 4}, {256, 64}, {64, 64}, {1024, 8}};
    for (unsigned k = 0; k < 4; ++k) {
      const unsigned m = pairs[k][0], n = pairs[k][1];
      for (unsigned t = 0; t < threads; ++t) {
        const auto parent = place_in_tile(t, m, threads);
        const auto child = place_in_tile(parent.rank, n, parent.count);
        const unsigned* f = &got[(k * threads + t) * 5];
        SCOPED_TRACE(testing::Message() << "tile " << n << " of " << m << ", thread " << t);
        ASSERT_EQ(f[0], child.rank);
        ASSERT_EQ(f[1], child.count);
        ASSERT_EQ(f[2], parent.rank / n);
        ASSERT_EQ(f[3], (parent.count + n - 1) / n);
        ASSERT_EQ(f[4], child.rank * 10000 + child.count);
      }
    }
    for (unsigned t = 0; t < threads; ++t) {
      ASSERT_EQ(got[(4 * threads + t) * 5], 1u);      // rank 0 of 1
      ASSERT_EQ(got[(4 * threads + t) * 5 + 1], 0u);  // meta rank 0 of 1, as NVIDIA's
      ASSERT_EQ(got[(4 * threads + t) * 5 + 2], 1u);
    }
  }
}

// The seed's tiles of 128 threads on GPUs that need scratch memory for them.
__global__ void seed_tiles_of_128(unsigned* out) {
  // reserve shared memory for thread_block_tile usage,
  //   specify that block size will be at most 256 threads.
  __shared__ cg::block_tile_memory<256> shared;
  cg::thread_block thb = cg::this_thread_block(shared);
  // Create tiles with 128 threads.
  auto tile = cg::tiled_partition<128>(thb);
  out[thb.thread_rank()] = tile.shfl(thb.thread_rank(), 127u) * 1000 + tile.meta_group_rank();
}

TEST(Tiles, TheSeedsTilesOf128WithBlockTileMemory) {
  auto out = cohort_test::poisoned<unsigned>(256, 0xDEADBEEF);
  cg::launch(seed_tiles_of_128, {dim3(1), dim3(256)}, out.data());
  const auto got = out.to_host();
  for (unsigned t = 0; t < 256; ++t) ASSERT_EQ(got[t], (t / 128 * 128 + 127) * 1000 + t / 128) << t;
}

// Each round every member writes its slot, the tile syncs, and every member
// reads the slot of another member of its tile.
template <unsigned N>
__global__ void tile_sync_rounds(unsigned* out, unsigned rounds) {
  unsigned* slots = cg::dynamic_shared<unsigned>();
  const cg::thread_block block = cg::this_thread_block();
  const auto tile = cg::tiled_partition<N>(block);
  const unsigned me = block.thread_rank(), base = me - tile.thread_rank();
  unsigned acc = 0;
  for (unsigned r = 0; r < rounds; ++r) {
    slots[me] = mix(me + r * 7919u);
    tile.sync();
    acc = acc * 31u + slots[base + (tile.thread_rank() + r + 1) % tile.num_threads()];
    tile.sync();
  }
  out[me] = acc;
}

TEST(Tiles, SyncOrdersTheMembersOfEachTile) {
  const unsigned threads = 300, rounds = 6;
  for_each_tile_size([&](auto size) {
    constexpr unsigned n = decltype(size)::value;
    auto out = cohort_test::poisoned<unsigned>(threads, 0xDEADBEEF);
    cg::launch(tile_sync_rounds<n>, {dim3(1), dim3(threads), threads * sizeof(unsigned)}, out.data(), rounds);
    const auto got = out.to_host();
    for (unsigned t = 0; t < threads; ++t) {
      const auto p = place_in_tile(t, n, threads);
      unsigned acc = 0;
      for (unsigned r = 0; r < rounds; ++r) acc = acc * 31u + mix(p.base + (p.rank + r + 1) % p.count + r * 7919u);
      ASSERT_EQ(got[t], acc) << "tile " << n << ", thread " << t;
    }
  });
}

// Partitioning a tile is not a collective of the tile (only a block's
// partition into tiles wider than a warp is, on the CUDA backend): in each
// tile of 256, only the first half partitions it, into static tiles of 64 and
// dynamic tiles of 128, and runs sync rounds in them while the other half
// has left.
template <unsigned N>
__global__ void half_of_each_tile_partitions_it(unsigned* out, unsigned rounds) {
  unsigned* slots = cg::dynamic_shared<unsigned>();
  const cg::thread_block block = cg::this_thread_block();
  const auto parent = cg::tiled_partition<256>(block);
  const unsigned me = block.thread_rank();
  if (parent.thread_rank() >= 128) {
    out[me] = 0;
    return;
  }
  const auto tile = cg::tiled_partition<N>(parent);
  const cg::thread_group dynamic = cg::tiled_partition(cg::thread_group(parent), N);
  const unsigned base = me - tile.thread_rank();
  unsigned acc = 0;
  for (unsigned r = 0; r < rounds; ++r) {
    slots[me] = mix(me + r * 7919u);
    (r % 2 ? dynamic.sync() : tile.sync());
    acc = acc * 31u + slots[base + (tile.thread_rank() + r + 1) % tile.num_threads()];
    (r % 2 ? tile.sync() : dynamic.sync());
  }
  out[me] = acc;
}

TEST(Tiles, PartitioningATileIsNotACollectiveOfTheTile) {
  const unsigned threads = 600, rounds = 6;  // the last tile of 256 is partial: 88 threads
  const auto check = [&](auto kernel, unsigned n) {
    auto out = cohort_test::poisoned<unsigned>(threads, 0xDEADBEEF);
    cg::launch(kernel, {dim3(1), dim3(threads), threads * sizeof(unsigned)}, out.data(), rounds);
    const auto got = out.to_host();
    for (unsigned t = 0; t < threads; ++t) {
      unsigned acc = 0;
      if (t % 256 < 128) {
        const auto p = place_in_tile(t, n, threads);
        for (unsigned r = 0; r < rounds; ++r) acc = acc * 31u + mix(p.base + (p.rank + r + 1) % p.count + r * 7919u);
      }
      ASSERT_EQ(got[t], acc) << "tiles of " << n << ", thread " << t;
    }
  };
  check(half_of_each_tile_partitions_it<64>, 64);
  check(half_of_each_tile_partitions_it<128>, 128);
}

// Every member passes the same argument: all four shuffles per argument.
template <unsigned N>
__global__ void shuffles(const unsigned* args, unsigned arg_count, int* out) {
  const cg::thread_block block = cg::this_thread_block();
  const auto tile = cg::tiled_partition<N>(block);
  const unsigned threads = block.num_threads(), total = gridDim.x * threads;
  const unsigned g = blockIdx.x * threads + block.thread_rank();
  const int v = static_cast<int>(mix(g));
  for (unsigned k = 0; k < arg_count; ++k) {
    int* o = out + static_cast<size_t>(k) * 4 * total + g;
    o[0] = tile.shfl(v, args[k]);
    o[total] = tile.shfl_up(v, args[k]);
    o[2 * total] = tile.shfl_down(v, args[k]);
    o[3 * total] = tile.shfl_xor(v, args[k]);
  }
}

// Every argument from 0 to just past the tile for tiles up to 64; for wider
// ones, those around the edges and the middle.
std::vector<unsigned> shuffle_arguments(unsigned n) {
  std::vector<unsigned> args;
  if (n <= 64) {
    for (unsigned a = 0; a <= n + 1; ++a) args.push_back(a);
  } else {
    args = {0, 1, 2, 3, n / 2 - 1, n / 2, n / 2 + 1, n - 2, n - 1, n, n + 1, 2 * n + 5};
  }
  args.push_back(0xFFFFFFFFu);
  return args;
}

// Checks every shuffle against cohort's rules; `nvidia_only` skips what
// NVIDIA leaves undefined (xor masks past the tile).
void check_shuffles(dim3 block, bool nvidia_only) {
  const unsigned threads = warp_test::threads_of(block), blocks = 2, total = blocks * threads;
  for_each_tile_size([&](auto size) {
    constexpr unsigned n = decltype(size)::value;
    const auto args = shuffle_arguments(n);
    cg::device_buffer<unsigned> d_args(args);
    auto out = cohort_test::poisoned<int>(args.size() * 4 * total, 0x5EADBEEF);
    cg::launch(shuffles<n>, {dim3(blocks), block}, d_args.data(), static_cast<unsigned>(args.size()), out.data());
    const auto got = out.to_host();
    for (unsigned k = 0; k < args.size(); ++k) {
      for (unsigned g = 0; g < total; ++g) {
        const unsigned t = g % threads, first = g - t;
        const auto p = place_in_tile(t, n, threads);
        const auto expect = [&](unsigned src) { return static_cast<int>(mix(first + p.base + src)); };
        const int* o = &got[static_cast<size_t>(k) * 4 * total + g];
        SCOPED_TRACE(testing::Message() << "tile " << n << ", argument " << args[k] << ", thread " << t);
        ASSERT_EQ(o[0], expect(warp_test::tile_shfl_source(p.rank, args[k], n, p.count))) << "shfl";
        ASSERT_EQ(o[total], expect(warp_test::shfl_up_source(p.rank, args[k], p.count))) << "shfl_up";
        ASSERT_EQ(o[2 * total], expect(warp_test::shfl_down_source(p.rank, args[k], p.count))) << "shfl_down";
        if (!nvidia_only || args[k] < n) {
          ASSERT_EQ(o[3 * total], expect(warp_test::shfl_xor_source(p.rank, args[k], p.count))) << "shfl_xor";
        }
      }
    }
  });
}

TEST(Tiles, ShufflesOfFullTilesEverySizeEveryArgument) {
  check_shuffles(dim3(1024), true);
  check_shuffles(dim3(32, 4, 2), true);
}

// cohort's rules where NVIDIA has none: a partial last tile shuffles among the
// threads that exist, and an xor mask past the tile leaves the value alone.
TEST(Tiles, ShufflesOfPartialTilesAndXorPastTheTile) {
  check_shuffles(dim3(100), false);
  check_shuffles(dim3(33, 3), false);
  check_shuffles(dim3(7, 5, 3), false);
}

// shfl of a partial last tile of n members wraps its source at the width N,
// as a full tile's does on NVIDIA's, and where src mod N is not a member the
// caller keeps its own value (as with shfl_down past the last member).
template <unsigned N>
__global__ void partial_tile_shfl(const unsigned* sources, unsigned count, unsigned* out) {
  const cg::thread_block block = cg::this_thread_block();
  const auto tile = cg::tiled_partition<N>(block);
  const unsigned t = block.thread_rank();
  for (unsigned k = 0; k < count; ++k) out[k * block.num_threads() + t] = tile.shfl(t, sources[k]);
}

inline constexpr unsigned own_value = ~0u;

struct wrapped_source {
  unsigned src, rank;  // rank: the partial tile's member it reads, or own_value
};

template <unsigned N>
void check_partial_tile_shfl(unsigned threads, std::vector<wrapped_source> cases) {
  const unsigned partial = threads % N, base = threads - partial;
  std::vector<unsigned> sources;
  for (const wrapped_source& c : cases) {
    ASSERT_EQ(c.rank, c.src % N < partial ? c.src % N : own_value) << "the case itself, source " << c.src;
    sources.push_back(c.src);
  }
  cg::device_buffer<unsigned> d_sources(sources);
  auto out = cohort_test::poisoned<unsigned>(cases.size() * threads, 0xDEADBEEF);
  cg::launch(partial_tile_shfl<N>, {dim3(1), dim3(threads)}, d_sources.data(), static_cast<unsigned>(cases.size()),
             out.data());
  const auto got = out.to_host();
  for (unsigned k = 0; k < cases.size(); ++k) {
    for (unsigned t = 0; t < threads; ++t) {
      SCOPED_TRACE(testing::Message() << "tile " << N << ", " << threads << " threads, source " << cases[k].src
                                      << ", thread " << t);
      const unsigned tile_base = t / N * N;
      const unsigned in_partial = cases[k].rank == own_value ? t : base + cases[k].rank;
      ASSERT_EQ(got[k * threads + t], t < base ? tile_base + cases[k].src % N : in_partial);
    }
  }
}

TEST(Tiles, ShflOfAPartialTileWrapsAtTheWidthAndKeepsItsOwnValuePastTheMembers) {
  // 52 threads: tiles of 32 and 20. Source 45 wraps to 13 (not 45 % 20 = 5); 60
  // wraps to 28, no member.
  check_partial_tile_shfl<32>(
      52, {{45, 13}, {60, own_value}, {32, 0}, {0xFFFFFFFFu, own_value}, {19, 19}, {20, own_value}});
  // 43 threads: five tiles of 8 and one of 3.
  check_partial_tile_shfl<8>(43, {{9, 1}, {15, own_value}, {18, 2}, {3, own_value}});
  // 100 threads: a tile of 64 and one of 36, wider than a warp.
  check_partial_tile_shfl<64>(
      100, {{64, 0}, {99, 35}, {100, own_value}, {101, own_value}, {127, own_value}, {1000, own_value}, {995, 35}});
}

// The usual tree reduction, sized by num_threads(), sums a partial tile too.
template <unsigned N>
__global__ void tree_sums(int* out) {
  const auto tile = cg::tiled_partition<N>(cg::this_thread_block());
  int v = static_cast<int>(cg::this_thread_block().thread_rank());
  for (unsigned d = 1; d < tile.num_threads(); d *= 2) {
    const int other = tile.shfl_down(v, d);  // its own value past the end
    if (tile.thread_rank() + d < tile.num_threads()) v += other;
  }
  if (tile.thread_rank() == 0) out[tile.meta_group_rank()] = v;
}

TEST(Tiles, TreeReductionOverAPartialTile) {
  for (const unsigned threads : {48u, 100u, 1000u}) {
    auto out = cohort_test::poisoned<int>(64, -1);
    cg::launch(tree_sums<32>, {dim3(1), dim3(threads)}, out.data());
    cg::launch(tree_sums<256>, {dim3(1), dim3(threads)}, out.data() + 32);
    const auto got = out.to_host();
    const auto sum = [&](unsigned first, unsigned size) {
      int s = 0;
      for (unsigned t = first; t < first + size && t < threads; ++t) s += static_cast<int>(t);
      return s;
    };
    for (unsigned k = 0; k < (threads + 31) / 32; ++k)
      ASSERT_EQ(got[k], sum(k * 32, 32)) << threads << " threads, tile " << k;
    for (unsigned k = 0; k < (threads + 255) / 256; ++k)
      ASSERT_EQ(got[32 + k], sum(k * 256, 256)) << threads << " threads, wide tile " << k;
  }
}

// Within a warp each member may pass its own source or delta.
template <unsigned N>
__global__ void per_lane_shuffles(unsigned salt, int* out) {
  const auto tile = cg::tiled_partition<N>(cg::this_thread_block());
  const unsigned t = cg::this_thread_block().thread_rank(), threads = blockDim.x;
  const int v = static_cast<int>(mix(t));
  const unsigned arg = mix(t + salt) % (2 * N + 1);
  out[t] = tile.shfl(v, arg);
  out[threads + t] = tile.shfl_up(v, arg);
  out[2 * threads + t] = tile.shfl_down(v, arg);
  out[3 * threads + t] = tile.shfl_xor(v, arg % N);
}

TEST(Tiles, PerMemberSourcesWithinAWarp) {
  const unsigned threads = 256;
  for (unsigned salt : {1u, 2u, 3u, 4u}) {
    for_each_tile_size([&](auto size) {
      constexpr unsigned n = decltype(size)::value;
      if constexpr (n <= 32) {
        auto out = cohort_test::poisoned<int>(4 * threads, 0x5EADBEEF);
        cg::launch(per_lane_shuffles<n>, {dim3(1), dim3(threads)}, salt, out.data());
        const auto got = out.to_host();
        for (unsigned t = 0; t < threads; ++t) {
          const auto p = place_in_tile(t, n, threads);
          const unsigned arg = mix(t + salt) % (2 * n + 1);
          const auto expect = [&](unsigned src) { return static_cast<int>(mix(p.base + src)); };
          SCOPED_TRACE(testing::Message() << "tile " << n << ", thread " << t << ", argument " << arg);
          ASSERT_EQ(got[t], expect(warp_test::tile_shfl_source(p.rank, arg, n, p.count)));
          ASSERT_EQ(got[threads + t], expect(warp_test::shfl_up_source(p.rank, arg, p.count)));
          ASSERT_EQ(got[2 * threads + t], expect(warp_test::shfl_down_source(p.rank, arg, p.count)));
          ASSERT_EQ(got[3 * threads + t], expect(warp_test::shfl_xor_source(p.rank, arg % n, p.count)));
        }
      }
    });
  }
}

}  // namespace
