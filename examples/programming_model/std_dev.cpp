// The approximate standard deviation of a vector of
// integers, computed by one tile of 32 with two reduces (the integer average,
// then the sum of squared differences). Every tile of the grid takes a vector
// of its own, of a seeded random length, and every thread of a tile must
// return the value the seed's formula gives — sqrt(sum((x - avg)^2) / n) with
// the average truncated to an integer, as the kernel computes it — which the
// host computes the same way, and prints next to the exact deviation.
//
// Blocks of 80 threads end in a tile of 16: its threads stride by 16 and its
// reduces fold 16 values, and the result must not change.
//
// Usage: std_dev [blocks] [threads]   (default 3 80)
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <vector>

#include <cohort/cohort.hpp>

#include "common/example_main.hpp"
#include "common/random_input.hpp"
#include "common/result_check.hpp"
#include "programming_model/model_functions.hpp"

namespace cg = cohort;

using model_functions::std_dev;

// Tile k of the grid takes vec[starts[k], starts[k + 1]).
__global__ void tile_std_devs(const int* vec, const int* starts, int* devs) {
  const auto tile = cg::tiled_partition<32>(cg::this_thread_block());
  const unsigned k = blockIdx.x * tile.meta_group_size() + tile.meta_group_rank();
  devs[blockIdx.x * blockDim.x + threadIdx.x] = std_dev(tile, vec + starts[k], starts[k + 1] - starts[k]);
}

namespace {

using namespace cohort_kernels;

// The seed's formula in the kernel's arithmetic: int sums, truncating division, float square root.
int approximate_std_dev(const int* x, int n) {
  int sum = 0;
  for (int i = 0; i < n; ++i) sum += x[i];
  const int avg = sum / n;
  int diffs = 0;
  for (int i = 0; i < n; ++i) diffs += (x[i] - avg) * (x[i] - avg);
  return static_cast<int>(std::sqrt(static_cast<float>(diffs) / static_cast<float>(n)));
}

double exact_std_dev(const int* x, int n) {
  double mean = 0, squares = 0;
  for (int i = 0; i < n; ++i) mean += x[i];
  mean /= n;
  for (int i = 0; i < n; ++i) squares += (x[i] - mean) * (x[i] - mean);
  return std::sqrt(squares / n);
}

}  // namespace

int main(int argc, char** argv) {
  const example_info info{
      "std_dev: approximate standard deviation by a tile of 32", "[blocks] [threads]  (defaults 3 80)", {3, 80}};
  return run_example(argc, argv, info, [](const std::vector<unsigned>& args) {
    const unsigned blocks = args[0], threads = args[1];
    const unsigned tiles_per_block = (threads + 31) / 32, tiles = blocks * tiles_per_block;
    // Lengths 1 to 3000: short vectors leave threads of the tile idle, long ones loop.
    splitmix64 lengths(default_seed + 1);
    std::vector<int> starts{0};
    for (unsigned k = 0; k < tiles; ++k) starts.push_back(starts.back() + 1 + static_cast<int>(lengths.next() % 3000));
    const std::vector<int> values = random_ints(static_cast<std::size_t>(starts.back()));

    const cg::device_buffer<int> vec(values), d_starts(starts);
    cg::device_buffer<int> devs(std::size_t{blocks} * threads);
    cg::launch(tile_std_devs, {dim3(blocks), dim3(threads)}, vec.data(), d_starts.data(), devs.data());
    const std::vector<int> got = devs.to_host();

    std::printf("launch  %ux%u: %u vectors of 1 to 3000 integers in [-100, 100], %d in all\n", blocks, threads, tiles,
                starts.back());
    result_check check("standard deviations");
    for (unsigned k = 0; k < tiles; ++k) {
      const int* x = values.data() + starts[k];
      const int n = starts[k + 1] - starts[k];
      const int expected = approximate_std_dev(x, n);
      if (k < 3) std::printf("tile %u  %4d integers: std_dev %d (exact %.3f)\n", k, n, expected, exact_std_dev(x, n));
      const unsigned b = k / tiles_per_block, first = k % tiles_per_block * 32;
      for (unsigned t = first; t < threads && t < first + 32; ++t) {
        const int dev = got[std::size_t{b} * threads + t];
        check.expect(dev == expected, "tile %u (block %u thread %u): std_dev %d of %d integers, expected %d", k, b, t,
                     dev, n, expected);
      }
    }
    return check.report();
  });
}
