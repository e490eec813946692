// A global reduce with grid-wide synchronization, run only after
// the environment checks the seed lists (cooperative-launch attribute,
// compute capability, driver model, stream) have passed.
//
// The seed's kernel loads one element per thread, so its grid must cover n
// and n is capped by what can be co-resident; here each thread takes a
// grid-stride share, so any n fits the occupancy-sized grid. The seed's step
// 4 ("every block may now read the result") is made real: every block sums
// all partials and writes the total, and every block's total is checked.
//
// Usage: global_reduce [n]   (default 2^20)
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <vector>

#include <cohort/cohort.hpp>

#include "common/cooperative_checks.hpp"
#include "common/device_summary.hpp"
#include "common/grid_size.hpp"
#include "common/random_input.hpp"
#include "common/sum_check.hpp"
#include "reduce/block_sum.hpp"

using namespace cohort_kernels;

__global__ void global_reduce_kernel(float* totals, float* block_sums, const float* data, std::size_t n) {
  const cg::grid_group grid = cg::this_grid();
  const cg::thread_block block = cg::this_thread_block();
  float* sdata = cg::dynamic_shared<float>();

  // Step 1: the block's share, reduced in shared memory.
  const float block_sum = block_tree_sum(block, sdata, grid_stride_sum(data, n));
  // Step 2: each block publishes its partial in global memory.
  if (block.thread_rank() == 0) block_sums[grid.block_rank()] = block_sum;
  // Step 3: every block waits until every partial is written.
  grid.sync();
  // Step 4: every block can now read them all: each computes the global sum.
  float sum = 0.0f;
  for (unsigned long long b = block.thread_rank(); b < grid.num_blocks(); b += block.size()) sum += block_sums[b];
  sum = block_tree_sum(block, sdata, sum);
  if (block.thread_rank() == 0) totals[grid.block_rank()] = sum;
}

int main(int argc, char** argv) {
  try {
    const std::size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 0) : std::size_t{1} << 20;
    if (n == 0) {
      std::fprintf(stderr, "usage: %s [n]  (n > 0 elements; default 1048576)\n", argv[0]);
      return 2;
    }
    std::printf("global_reduce: the grid-synchronized reduction\n");
    std::printf("device  %s\n", device_summary(cohort::get_device_properties()).c_str());
    if (!print_checks(cooperative_launch_checks(reduce_block_threads))) {
      std::printf("FAIL: this device cannot run the cooperative kernel\n");
      return 1;
    }

    constexpr std::size_t shared = reduce_block_threads * sizeof(float);
    const unsigned blocks = resident_grid(global_reduce_kernel, reduce_block_threads, n, shared);
    const std::vector<float> input = random_floats(n);
    const cohort::device_buffer<float> data(input);
    cohort::device_buffer<float> block_sums(blocks);
    cohort::device_buffer<float> totals(blocks);
    const cohort::stream stream;
    cohort::launch_cooperative<global_reduce_kernel>({blocks, reduce_block_threads, shared, stream.get()},
                                                     totals.data(), block_sums.data(), data.data(), n);
    stream.synchronize();

    const std::vector<float> sums = totals.to_host();
    const reference_sum reference = sum_in_double(input.data(), n);
    std::size_t wrong = 0;
    for (const float s : sums) wrong += check_sum(reference, s).ok ? 0 : 1;
    const sum_check first = check_sum(reference, sums[0]);
    std::printf("launch  %s cooperative on a created stream, %zu floats\n",
                launch_text(blocks, reduce_block_threads).c_str(), n);
    std::printf("sum     %.6f in block 0, reference %.6f, error %.3g (tolerance %.3g)\n", static_cast<double>(sums[0]),
                first.reference, first.error, first.tolerance);
    std::printf("blocks  %zu of %u computed a wrong total\n%s\n", wrong, blocks, wrong ? "FAIL" : "PASS");
    return wrong ? 1 : 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\nFAIL\n", e.what());
    return 1;
  }
}
