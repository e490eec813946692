// The warp-synchronous code pattern on 64-lane hardware:
// the block cut into tiles of 64 and work that only the first tile of each
// block does, ending in my_tile.sync(). The work here needs that sync: the
// tile's threads stage their elements in shared memory and each reads back
// the one its mirror rank staged, so the tile's output is its input reversed
// and the rest of the block writes nothing.
//
// The seed's warp is 64 lanes, making the tile one warp and its sync a warp
// sync; on 32-lane warps (the CUDA backend, the host's default) the same tile
// spans two warps, and the sync must be a barrier across them. The program is
// correct at both widths and says which it ran: its test runs on the host at
// warp size 32 and 64 (COHORT_WARP_SIZE=64). It launches blocks of 100 (a
// full first tile) and of 40 (a first tile of 40 threads).
//
// Usage: tile64_warp_sync [blocks]   (default 3)
#include <cstddef>
#include <cstdio>
#include <vector>

#include <cohort/cohort.hpp>

#include "common/example_main.hpp"
#include "common/random_input.hpp"
#include "common/result_check.hpp"

namespace cg = cohort;

inline constexpr int untouched = -1000;  // outside the inputs' [-100, 100]

__global__ void cooperative_kernel(const int* in, int* out, int* warp_size) {
  __shared__ int staged[64];
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i == 0) *warp_size = warpSize;

  // obtain default "current thread block" group
  cg::thread_block my_block = cg::this_thread_block();

  // subdivide into 64-thread, tiled subgroups
  // Tiled subgroups evenly partition a parent group into
  // adjacent sets of threads - in this case each one warp in size
  auto my_tile = cg::tiled_partition<64>(my_block);

  // This operation will be performed by only the
  // first 64-thread tile of each block
  if (my_tile.meta_group_rank() == 0) {
    staged[my_tile.thread_rank()] = in[i];
    my_tile.sync();
    out[i] = staged[my_tile.num_threads() - 1 - my_tile.thread_rank()];
  }
}

namespace {

using namespace cohort_kernels;

bool run(unsigned blocks, unsigned threads) {
  const std::vector<int> values = random_ints(std::size_t{blocks} * threads);
  const cg::device_buffer<int> in(values);
  cg::device_buffer<int> out(values.size()), warp_size(1);
  out.fill(untouched);
  cg::launch(cooperative_kernel, {dim3(blocks), dim3(threads)}, in.data(), out.data(), warp_size.data());
  const std::vector<int> got = out.to_host();

  const int warp = warp_size.to_host()[0];
  const unsigned first = threads < 64 ? threads : 64;  // the first tile's threads
  std::printf("launch  %ux%u at warpSize %d: a tile of %u threads in %u warp%s\n", blocks, threads, warp, first,
              (first + warp - 1) / warp, (first + warp - 1) / warp == 1 ? "" : "s");
  result_check check(threads < 64 ? "first tile (partial)" : "first tile");
  for (unsigned b = 0; b < blocks; ++b)
    for (unsigned t = 0; t < threads; ++t) {
      const std::size_t base = std::size_t{b} * threads;
      const int expected = t < first ? values[base + first - 1 - t] : untouched;
      check.expect(got[base + t] == expected, "block %u thread %u wrote %d, expected %d", b, t, got[base + t],
                   expected);
    }
  return check.report();
}

}  // namespace

int main(int argc, char** argv) {
  const example_info info{
      "tile64_warp_sync: only the first tile of 64 works, then syncs", "[blocks]  (default 3)", {3}};
  return run_example(argc, argv, info, [](const std::vector<unsigned>& args) {
    const bool full = run(args[0], 100);
    const bool partial = run(args[0], 40);
    return full && partial;
  });
}
