// Stream compaction with exclusive_scan. Each thread of a
// tile of 32 filters its part of the input in place and counts what passes;
// the exclusive scan of the counts gives each thread where its survivors go in
// the output, and a shuffle from the last rank gives every thread the total.
// Every tile of the grid compacts a chunk of its own (here: keeping multiples
// of 3). A chunk's output must hold its survivors, thread part after thread
// part (within a part the in-place filter reorders), and every thread of the
// tile must return their number.
//
// One change to the seed's code: it gives each thread count / num_threads
// elements, rounded down, which leaves the last count % num_threads elements
// unread; rounding up, as the min() clamps that follow expect, covers them.
// The default chunk of 301 elements is no multiple of a tile's size, and
// blocks of 80 threads end in a tile of 16, whose threads take larger parts.
//
// Usage: stream_compaction [blocks] [threads] [chunk]   (default 3 80 301)
#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <vector>

#include <cohort/cohort.hpp>

#include "common/example_main.hpp"
#include "common/random_input.hpp"
#include "common/result_check.hpp"
#include "programming_model/model_functions.hpp"

namespace cg = cohort;

using model_functions::stream_compaction;

// Tile k of the grid compacts input[k * chunk, (k + 1) * chunk) into the same
// range of output; every thread stores the total it was returned.
__global__ void compact_chunks(int* input, int chunk, int* output, int* totals) {
  auto tile = cg::tiled_partition<32>(cg::this_thread_block());
  const std::size_t k = blockIdx.x * tile.meta_group_size() + tile.meta_group_rank();
  totals[blockIdx.x * blockDim.x + threadIdx.x] =
      stream_compaction(tile, input + k * chunk, chunk, [](int v) { return v % 3 == 0; }, output + k * chunk);
}

int main(int argc, char** argv) {
  using namespace cohort_kernels;
  const example_info info{"stream_compaction: exclusive_scan places each thread's survivors",
                          "[blocks] [threads] [chunk]  (defaults 3 80 301)",
                          {3, 80, 301}};
  return run_example(argc, argv, info, [](const std::vector<unsigned>& args) {
    const unsigned blocks = args[0], threads = args[1], chunk = args[2];
    const unsigned tiles_per_block = (threads + 31) / 32, tiles = blocks * tiles_per_block;
    const std::vector<int> values = random_ints(std::size_t{tiles} * chunk);
    cg::device_buffer<int> input(values), output(values.size()), totals(std::size_t{blocks} * threads);
    cg::launch(compact_chunks, {dim3(blocks), dim3(threads)}, input.data(), static_cast<int>(chunk), output.data(),
               totals.data());
    const std::vector<int> got = output.to_host(), returned = totals.to_host();

    const auto multiple_of_3 = [](int v) { return v % 3 == 0; };
    std::printf("launch  %ux%u: %u chunks of %u integers in [-100, 100], keeping multiples of 3\n", blocks, threads,
                tiles, chunk);
    result_check check("compacted chunks");
    for (unsigned k = 0; k < tiles; ++k) {
      const unsigned b = k / tiles_per_block, first = k % tiles_per_block * 32;
      const unsigned size = first + 32 <= threads ? 32 : threads - first;  // the tile's threads
      const unsigned per_thread = (chunk + size - 1) / size;
      std::vector<index_range> parts;
      std::size_t kept = 0;
      for (unsigned r = 0; r < size; ++r) {
        const std::size_t begin = std::size_t{k} * chunk + std::min(r * per_thread, chunk);
        const std::size_t end = std::size_t{k} * chunk + std::min((r + 1) * per_thread, chunk);
        parts.push_back({begin, end});
        for (std::size_t i = begin; i < end; ++i) kept += multiple_of_3(values[i]);
      }
      if (k < 3) std::printf("tile %u  kept %zu of %u\n", k, kept, chunk);
      for (unsigned t = first; t < first + size; ++t) {
        const int total = returned[std::size_t{b} * threads + t];
        check.expect(total == static_cast<int>(kept), "tile %u (block %u thread %u) returned %d, %zu passed", k, b, t,
                     total, kept);
      }
      check.expect(kept_in_part_order(values, parts, multiple_of_3, got.data() + std::size_t{k} * chunk, kept),
                   "tile %u's output is not its %zu multiples of 3, part by part", k, kept);
    }
    return check.report();
  });
}
