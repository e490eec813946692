// A block cut
// into tiles of 32 and of 4, and a tile of 32 cut into tiles of 4, statically
// and through the generic thread_group. Rank 0 of every tile of 4 prints the
// seed's "Hello from tile4 rank 0" line — every fourth thread, 0, 4, 8, ...
// Every thread also records its ranks, which must be the seed's aligned runs:
// thread t is rank t % 32 of tile t / 32 and rank t % 4 of tile t / 4 of the
// block, and rank t % 4 of tile (t % 32) / 4 of its tile of 32.
//
// At the default 42 threads the second tile of 32 is partial (10 threads) and
// so is its last tile of 4 (2 threads): sizes and meta-group sizes count the
// threads that exist (docs/warp-level.md).
//
// Usage: tile_ranks [blocks] [threads]   (default 2 42)
#include <cstddef>
#include <cstdio>
#include <vector>

#include <cohort/cohort.hpp>

#include "common/example_main.hpp"
#include "common/result_check.hpp"

namespace cg = cohort;

// A thread's place in a partition: its rank in its tile, the tile's rank among
// its parent's tiles, and the sizes of both.
struct place {
  unsigned rank, tile, size, tiles;
  bool operator==(const place&) const = default;
};

struct places {
  place in32, in4, in4_of_32, in_generic4;  // a thread_group has no meta ranks: tile and tiles stay 0
};

template <class Tile>
__device__ place place_in(const Tile& t) {
  return {t.thread_rank(), t.meta_group_rank(), t.num_threads(), t.meta_group_size()};
}

__global__ void kernel(places* out) {
  /// The following code will create two sets of tiled groups, of size 32 and 4 respectively:
  /// The latter has the provenance encoded in the type, while the first stores it in the handle
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile32 = cg::tiled_partition<32>(block);
  cg::thread_block_tile<4, cg::thread_block> tile4 = cg::tiled_partition<4>(block);

  // The tile of 32 cut again into tiles of 4,
  auto tile4_of_32 = cg::tiled_partition<4>(tile32);
  // or using a general group
  cg::thread_group generic4 = cg::tiled_partition(tile32, 4);

  if (tile4.thread_rank() == 0) printf("Hello from tile4 rank 0: %u (block %u)\n", block.thread_rank(), blockIdx.x);

  const place generic{static_cast<unsigned>(generic4.thread_rank()), 0, static_cast<unsigned>(generic4.num_threads()),
                      0};
  out[blockIdx.x * blockDim.x + threadIdx.x] = {place_in(tile32), place_in(tile4), place_in(tile4_of_32), generic};
}

namespace {

using namespace cohort_kernels;

unsigned ceil_div(unsigned a, unsigned b) { return (a + b - 1) / b; }

// Rank r of a parent of `threads` in its tile of n: aligned runs, the last
// one holding what is left.
place expected_place(unsigned r, unsigned threads, unsigned n) {
  return {r % n, r / n, r / n * n + n <= threads ? n : threads % n, ceil_div(threads, n)};
}

bool check_place(result_check& check, const char* partition, unsigned b, unsigned t, const place& got,
                 const place& expected) {
  return check.expect(got == expected,
                      "block %u thread %u, %s: rank %u of tile %u (%u threads, %u tiles), expected %u of %u (%u, %u)",
                      b, t, partition, got.rank, got.tile, got.size, got.tiles, expected.rank, expected.tile,
                      expected.size, expected.tiles);
}

}  // namespace

int main(int argc, char** argv) {
  const example_info info{
      "tile_ranks: tiles of 32 and of 4 and their thread ranks", "[blocks] [threads]  (defaults 2 42)", {2, 42}};
  return run_example(argc, argv, info, [](const std::vector<unsigned>& args) {
    const unsigned blocks = args[0], threads = args[1];
    cg::device_buffer<places> out(std::size_t{blocks} * threads);
    cg::launch(kernel, {dim3(blocks), dim3(threads)}, out.data());
    const std::vector<places> got = out.to_host();

    std::printf("launch  %ux%u: %u tiles of 32 and %u of 4 per block\n", blocks, threads, ceil_div(threads, 32),
                ceil_div(threads, 4));
    result_check check("tile ranks");
    for (unsigned b = 0; b < blocks; ++b)
      for (unsigned t = 0; t < threads; ++t) {
        const places& g = got[std::size_t{b} * threads + t];
        const place in32 = expected_place(t, threads, 32), in4_of_32 = expected_place(t % 32, in32.size, 4);
        check_place(check, "tile32", b, t, g.in32, in32);
        check_place(check, "tile4", b, t, g.in4, expected_place(t, threads, 4));
        check_place(check, "tile4 of tile32", b, t, g.in4_of_32, in4_of_32);
        check_place(check, "thread_group of 4", b, t, g.in_generic4, {in4_of_32.rank, 0, in4_of_32.size, 0});
      }
    return check.report();
  });
}
