// The inclusive scan of thread ranks in tiles of 8, printed
// by every thread as the seed prints it ("prints for each group: 0: 0, 1: 1,
// 2: 3, 3: 6, ..."). Every thread also stores its value, which must be the sum
// of ranks 0 to its own, r (r + 1) / 2. At the default 20 threads the last
// tile holds 4 threads and prints 0: 0 to 3: 6.
//
// Usage: inclusive_scan_print [blocks] [threads]   (default 1 20)
#include <cstddef>
#include <cstdio>
#include <vector>

#include <cohort/cohort.hpp>

#include "common/example_main.hpp"
#include "common/result_check.hpp"

namespace cg = cohort;

__global__ void kernel(unsigned* printed) {
  auto thread_block = cg::this_thread_block();
  auto tile = cg::tiled_partition<8>(thread_block);
  unsigned int val = cg::inclusive_scan(tile, tile.thread_rank());
  printf("%u: %u\n", tile.thread_rank(), val);
  printed[blockIdx.x * blockDim.x + threadIdx.x] = val;
}

/*  prints for each group:
    0: 0
    1: 1
    2: 3
    3: 6
    4: 10
    5: 15
    6: 21
    7: 28
*/

int main(int argc, char** argv) {
  using namespace cohort_kernels;
  const example_info info{"inclusive_scan_print: inclusive_scan of thread ranks in tiles of 8",
                          "[blocks] [threads]  (defaults 1 20)",
                          {1, 20}};
  return run_example(argc, argv, info, [](const std::vector<unsigned>& args) {
    const unsigned blocks = args[0], threads = args[1];
    cg::device_buffer<unsigned> printed(std::size_t{blocks} * threads);
    cg::launch(kernel, {dim3(blocks), dim3(threads)}, printed.data());
    const std::vector<unsigned> got = printed.to_host();

    result_check check("scanned ranks");
    for (unsigned b = 0; b < blocks; ++b)
      for (unsigned t = 0; t < threads; ++t) {
        const unsigned rank = t % 8, expected = rank * (rank + 1) / 2;
        const unsigned val = got[std::size_t{b} * threads + t];
        check.expect(val == expected, "block %u thread %u (tile rank %u) printed %u, expected %u", b, t, rank, val,
                     expected);
      }
    return check.report();
  });
}
