// A leader thread loads an integer
// from global into shared memory, the block syncs, and every thread works with
// it. Each block loads a value of its own (globalInput[blockIdx.x]), so that a
// thread reading another block's x, or x before its leader stored it, shows;
// every thread records what it saw, and must have seen its block's value.
//
// Usage: leader_load [blocks] [threads]   (default 7 100: the last warp is partial)
#include <cstddef>
#include <cstdio>
#include <vector>

#include <cohort/cohort.hpp>

#include "common/example_main.hpp"
#include "common/random_input.hpp"
#include "common/result_check.hpp"

namespace cg = cohort;

/// Loading an integer from global into shared memory
__global__ void kernel(const int* globalInput, int* seen) {
  __shared__ int x;
  cg::thread_block g = cg::this_thread_block();
  // Choose a leader in the thread block
  if (g.thread_rank() == 0) {
    // load from global into shared for all threads to work with
    x = globalInput[g.group_index().x];
  }
  // After loading data into shared memory, you want to synchronize
  // if all threads in your thread block need to see it
  g.sync();  // equivalent to __syncthreads();
  seen[g.group_index().x * g.num_threads() + g.thread_rank()] = x;
}

int main(int argc, char** argv) {
  using namespace cohort_kernels;
  const example_info info{"leader_load: one thread loads into shared memory, the block syncs",
                          "[blocks] [threads]  (defaults 7 100)",
                          {7, 100}};
  return run_example(argc, argv, info, [](const std::vector<unsigned>& args) {
    const unsigned blocks = args[0], threads = args[1];
    const std::vector<int> values = random_ints(blocks);
    const cg::device_buffer<int> input(values);
    cg::device_buffer<int> seen(std::size_t{blocks} * threads);
    cg::launch(kernel, {dim3(blocks), dim3(threads)}, input.data(), seen.data());
    const std::vector<int> got = seen.to_host();

    std::printf("launch  %ux%u, block 0 loads %d\n", blocks, threads, values[0]);
    result_check check("values seen");
    for (unsigned b = 0; b < blocks; ++b)
      for (unsigned t = 0; t < threads; ++t) {
        const int saw = got[std::size_t{b} * threads + t];
        check.expect(saw == values[b], "block %u thread %u saw %d, its leader loaded %d", b, t, saw, values[b]);
      }
    return check.report();
  });
}
