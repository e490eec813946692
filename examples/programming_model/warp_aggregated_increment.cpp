// The warp-aggregated
// atomic increment — the active lanes of a warp take consecutive slots with a
// single atomic add by one of them — written twice, as the seed writes it:
// with coalesced_threads() and a shuffle of the leader's result, and with
// invoke_one_broadcast.
//
// Both serve the use the seed describes: copying the elements that pass a
// test (here: multiples of 4) into another array, the counter handing out the
// slots. Each block filters its own elements into its own part of the output
// through a counter in shared memory; the lanes that pass are a data-dependent
// subset of each warp, so coalesced_threads() sees groups of every size. A
// block's output must hold exactly its multiples of 4 (in any order: the slots
// go out in the order warps arrive), and its counter their number. Blocks of
// 160 threads end in a partial warp at warp size 64; the last block is partial.
//
// Usage: warp_aggregated_increment [n] [threads]   (default 4999 160)
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

using model_functions::atomicAddOneRelaxed;
using model_functions::atomicAggInc;

// The two increments, each with the counter type its seed code takes.
struct with_coalesced_threads {
  using counter = int;
  __device__ static int take(counter& c) { return atomicAggInc(&c); }
};

struct with_invoke_one_broadcast {
  using counter = cg::atomic<unsigned, cg::thread_scope_block>;
  __device__ static int take(counter& c) { return static_cast<int>(atomicAddOneRelaxed(c)); }
};

// Copies the multiples of 4 among the block's elements to the front of the
// block's part of out, at the slots Increment hands out; kept: their number.
template <class Increment>
__global__ void keep_multiples_of_4(const int* in, unsigned n, int* out, int* kept) {
  __shared__ typename Increment::counter counter;
  const cg::thread_block block = cg::this_thread_block();
  const unsigned base = block.group_index().x * block.num_threads();
  const unsigned i = base + block.thread_rank();
  if (block.thread_rank() == 0) counter = 0;
  block.sync();
  if (i < n && in[i] % 4 == 0) out[base + Increment::take(counter)] = in[i];
  block.sync();
  if (block.thread_rank() == 0) kept[block.group_index().x] = static_cast<int>(counter);
}

namespace {

using namespace cohort_kernels;

template <class Increment>
bool run(const char* name, const std::vector<int>& values, unsigned threads) {
  const unsigned n = static_cast<unsigned>(values.size());
  const unsigned blocks = (n + threads - 1) / threads;
  const cg::device_buffer<int> in(values);
  cg::device_buffer<int> out(n), kept(blocks);
  cg::launch(keep_multiples_of_4<Increment>, {dim3(blocks), dim3(threads)}, in.data(), n, out.data(), kept.data());
  const std::vector<int> got = out.to_host(), counts = kept.to_host();

  const auto multiple_of_4 = [](int v) { return v % 4 == 0; };
  result_check check(name);
  std::size_t total = 0;
  for (unsigned b = 0; b < blocks; ++b) {
    const index_range mine{std::size_t{b} * threads, std::min<std::size_t>(n, std::size_t{b + 1} * threads)};
    std::size_t expected = 0;
    for (std::size_t i = mine.begin; i < mine.end; ++i) expected += multiple_of_4(values[i]);
    total += expected;
    const bool count_right = counts[b] == static_cast<int>(expected);
    check.expect(count_right, "block %u counted %d multiples of 4, it has %zu", b, counts[b], expected);
    if (count_right)
      check.expect(kept_in_part_order(values, {mine}, multiple_of_4, got.data() + mine.begin, expected),
                   "block %u's slots do not hold its %zu multiples of 4, each once", b, expected);
  }
  std::printf("%-26s %u blocks of %u kept %zu multiples of 4 of %u elements\n", name, blocks, threads, total, n);
  return check.report();
}

}  // namespace

int main(int argc, char** argv) {
  const example_info info{
      "warp_aggregated_increment: one atomic per coalesced group", "[n] [threads]  (defaults 4999 160)", {4999, 160}};
  return run_example(argc, argv, info, [](const std::vector<unsigned>& args) {
    const std::vector<int> values = random_ints(args[0]);
    const bool coalesced = run<with_coalesced_threads>("coalesced_threads", values, args[1]);
    const bool invoke_one = run<with_invoke_one_broadcast>("invoke_one_broadcast", values, args[1]);
    return coalesced && invoke_one;
  });
}
