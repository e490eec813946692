// A block-wide sum from tile reductions, each tile of 32
// adding its total to a block-scope atomic with reduce_update_async, and the
// block's sync making every tile's update visible. Each block sums a vector
// of its own into its own atomic in shared memory; every block's sum must be
// the exact sum of its vector (integers: any order of addition gives it).
//
// Blocks of 200 threads end in a tile of 8, and 10007 elements leave some
// threads of the stride loop one element short.
//
// Usage: block_reduce_update [blocks] [threads] [count]   (default 3 200 10007)
#include <cstddef>
#include <cstdio>
#include <vector>

#include <cohort/cohort.hpp>

#include "common/example_main.hpp"
#include "common/random_input.hpp"
#include "common/result_check.hpp"
#include "programming_model/model_functions.hpp"

namespace cg = cohort;

using model_functions::block_reduce;

// Block b sums A[b * count, (b + 1) * count) into sums[b].
__global__ void block_sums(const int* A, int count, int* sums) {
  __shared__ cg::atomic<int, cg::thread_scope_block> total_sum;
  if (threadIdx.x == 0) total_sum.store(0, cg::memory_order_relaxed);
  __syncthreads();
  block_reduce(A + static_cast<std::size_t>(blockIdx.x) * count, count, total_sum);
  if (threadIdx.x == 0) sums[blockIdx.x] = total_sum.load(cg::memory_order_relaxed);
}

int main(int argc, char** argv) {
  using namespace cohort_kernels;
  const example_info info{"block_reduce_update: tile sums into a block-scope atomic",
                          "[blocks] [threads] [count]  (defaults 3 200 10007)",
                          {3, 200, 10007}};
  return run_example(argc, argv, info, [](const std::vector<unsigned>& args) {
    const unsigned blocks = args[0], threads = args[1];
    const int count = static_cast<int>(args[2]);
    const std::vector<int> values = random_ints(std::size_t{blocks} * args[2]);
    const cg::device_buffer<int> A(values);
    cg::device_buffer<int> sums(blocks);
    cg::launch(block_sums, {dim3(blocks), dim3(threads)}, A.data(), count, sums.data());
    const std::vector<int> got = sums.to_host();

    std::printf("launch  %ux%u, %d integers in [-100, 100] per block\n", blocks, threads, count);
    result_check check("block sums");
    for (unsigned b = 0; b < blocks; ++b) {
      long long expected = 0;
      for (int i = 0; i < count; ++i) expected += values[std::size_t{b} * args[2] + static_cast<std::size_t>(i)];
      if (b < 4) std::printf("block %u  sum %d, expected %lld\n", b, got[b], expected);
      check.expect(got[b] == expected, "block %u summed to %d, expected %lld", b, got[b], expected);
    }
    return check.report();
  });
}
