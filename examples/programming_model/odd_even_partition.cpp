// binary_partition splits each tile of
// 32 into the threads holding an odd element and those holding an even one.
// Each thread records its place in its part (rank, size, and the part's meta
// rank and size) and the part's sum of elements, a reduce over the coalesced
// group the partition made. The parts must be what the elements say: a
// thread's rank is the number of same-parity threads before it in its tile,
// the meta rank is the parity when the tile splits (0 of 1 when all agree).
//
// Elements are seeded random integers; blocks of 75 threads end in a tile of
// 11, and the last warp is partial at either warp size.
//
// Usage: odd_even_partition [blocks] [threads]   (default 3 75)
#include <cstddef>
#include <cstdio>
#include <vector>

#include <cohort/cohort.hpp>

#include "common/example_main.hpp"
#include "common/random_input.hpp"
#include "common/result_check.hpp"

namespace cg = cohort;

struct place {
  unsigned rank, size, meta_rank, meta_size;
  int sum;  // of the elements of the thread's part
};

/// This example divides a 32-sized tile into a group with odd
/// numbers and a group with even numbers
__global__ void oddEven(const int* inputArr, place* places) {
  auto block = cg::this_thread_block();
  auto tile32 = cg::tiled_partition<32>(block);
  // One element per thread of the grid (the seed indexes by block rank: one block).
  const unsigned long long i = cg::this_grid().thread_rank();

  // inputArr contains random integers
  int elem = inputArr[i];
  // after this, tile32 is split into 2 groups,
  // a subtile where elem&1 is true and one where its false
  auto subtile = cg::binary_partition(tile32, (elem & 1));

  places[i] = {subtile.thread_rank(), subtile.num_threads(), subtile.meta_group_rank(), subtile.meta_group_size(),
               cg::reduce(subtile, elem, cg::plus<int>())};
}

namespace {

using namespace cohort_kernels;

// The places of the threads of one tile, elements[begin, end), from parity alone.
std::vector<place> expected_places(const std::vector<int>& elements, std::size_t begin, std::size_t end) {
  unsigned size[2] = {0, 0};
  int sum[2] = {0, 0};
  for (std::size_t i = begin; i < end; ++i) {
    ++size[elements[i] & 1];
    sum[elements[i] & 1] += elements[i];
  }
  const bool split = size[0] && size[1];
  std::vector<place> places;
  unsigned seen[2] = {0, 0};
  for (std::size_t i = begin; i < end; ++i) {
    const unsigned odd = elements[i] & 1;
    places.push_back({seen[odd]++, size[odd], split ? odd : 0u, split ? 2u : 1u, sum[odd]});
  }
  return places;
}

}  // namespace

int main(int argc, char** argv) {
  const example_info info{
      "odd_even_partition: binary_partition of tiles of 32 by parity", "[blocks] [threads]  (defaults 3 75)", {3, 75}};
  return run_example(argc, argv, info, [](const std::vector<unsigned>& args) {
    const unsigned blocks = args[0], threads = args[1];
    const std::vector<int> elements = random_ints(std::size_t{blocks} * threads);
    const cg::device_buffer<int> input(elements);
    cg::device_buffer<place> places(elements.size());
    cg::launch(oddEven, {dim3(blocks), dim3(threads)}, input.data(), places.data());
    const std::vector<place> got = places.to_host();

    std::printf("launch  %ux%u, one seeded random integer per thread\n", blocks, threads);
    result_check check("odd and even parts");
    for (unsigned b = 0; b < blocks; ++b)
      for (unsigned first = 0; first < threads; first += 32) {
        const std::size_t begin = std::size_t{b} * threads + first;
        const std::size_t end = begin + (first + 32 <= threads ? 32 : threads - first);
        const std::vector<place> expected = expected_places(elements, begin, end);
        for (std::size_t i = begin; i < end; ++i) {
          const place& g = got[i];
          const place& e = expected[i - begin];
          check.expect(g.rank == e.rank && g.size == e.size && g.meta_rank == e.meta_rank &&
                           g.meta_size == e.meta_size && g.sum == e.sum,
                       "block %u thread %zu (element %d): rank %u of %u, part %u of %u, sum %d; expected %u of %u, "
                       "part %u of %u, sum %d",
                       b, i - std::size_t{b} * threads, elements[i], g.rank, g.size, g.meta_rank, g.meta_size, g.sum,
                       e.rank, e.size, e.meta_rank, e.meta_size, e.sum);
        }
      }
    return check.report();
  });
}
