// The programming model's examples of reduce and the scans (the printing one
// records what it would print): the approximate standard deviation over a tile of 32,
// the inclusive scan of thread ranks in tiles of 8, and stream compaction with
// exclusive_scan, on a tile and (beyond NVIDIA) on a block. The device
// functions are the examples' (kernels/programming_model/model_functions.hpp).
#include <cmath>

#include "collectives_common.hpp"
#include "programming_model/model_functions.hpp"

namespace cg = cohort;

namespace {

__global__ void model_std_dev(int* vec, int length, int* out) {
  const auto tile = cg::tiled_partition<32>(cg::this_thread_block());
  out[threadIdx.x] = model_functions::std_dev(tile, vec, length);
}

TEST(ModelExampleCollectives, StandardDeviationOverATile) {
  const int length = 1000;
  std::vector<int> vec(length);
  for (int i = 0; i < length; ++i) vec[i] = static_cast<int>(coll_test::mix(i) % 201);
  cg::device_buffer<int> d_vec(vec), out(32);
  cg::launch(model_std_dev, {dim3(1), dim3(32)}, d_vec.data(), length, out.data());
  long long sum = 0;
  for (int v : vec) sum += v;
  const int avg = static_cast<int>(sum / length);
  long long diffs = 0;
  for (int v : vec) diffs += static_cast<long long>(v - avg) * (v - avg);
  const int expected = static_cast<int>(std::sqrt(static_cast<float>(diffs) / length));
  for (int got : out.to_host()) ASSERT_EQ(got, expected);
}

__global__ void seed_inclusive_scan(unsigned* printed) {
  auto thread_block = cg::this_thread_block();
  auto tile = cg::tiled_partition<8>(thread_block);
  unsigned int val = cg::inclusive_scan(tile, tile.thread_rank());
  printed[thread_block.thread_rank()] = tile.thread_rank() * 1000 + val;  // the seed: printf("%u: %u\n", ...)
}

TEST(ModelExampleCollectives, InclusiveScanOfRanksInTilesOfEight) {
  cg::device_buffer<unsigned> printed(64);
  cg::launch(seed_inclusive_scan, {dim3(1), dim3(64)}, printed.data());
  const unsigned expected[8] = {0, 1, 3, 6, 10, 15, 21, 28};  // "prints for each group"
  const auto got = printed.to_host();
  for (unsigned t = 0; t < 64; ++t) ASSERT_EQ(got[t], t % 8 * 1000 + expected[t % 8]) << "thread " << t;
}

__global__ void seed_compaction_tile(int* input, int count, int* output, int* kept) {
  auto tile = cg::tiled_partition<32>(cg::this_thread_block());
  kept[threadIdx.x] = model_functions::stream_compaction(tile, input, count, [](int v) { return v % 3 == 0; }, output);
}

// The same on a block, which has no shfl: the total comes from a reduce.
__global__ void compaction_block(int* input, int count, int* output, int* kept) {
  auto block = cg::this_thread_block();
  const int per_thread = count / static_cast<int>(block.num_threads());
  const int start = static_cast<int>(block.thread_rank()) * per_thread;
  int mine = 0;
  for (int i = start; i < start + per_thread; ++i)
    if (input[i] % 3 == 0) input[start + mine++] = input[i];
  const int at = cg::exclusive_scan(block, mine);
  for (int i = 0; i < mine; ++i) output[at + i] = input[start + i];
  kept[block.thread_rank()] = cg::reduce(block, mine, cg::plus<int>());
}

template <class Kernel>
void check_compaction(Kernel kernel, unsigned threads) {
  const int per_thread = 9, count = per_thread * static_cast<int>(threads);
  std::vector<int> input(count);
  for (int i = 0; i < count; ++i) input[i] = static_cast<int>(coll_test::mix(i) % 1000);
  std::vector<int> expected;
  for (int t = 0; t < static_cast<int>(threads); ++t)  // each thread keeps its part's survivors, in its own order
    for (int i = t * per_thread; i < (t + 1) * per_thread; ++i)
      if (input[i] % 3 == 0) expected.push_back(input[i]);
  cg::device_buffer<int> d_input(input), output(count), kept(threads);
  cg::launch(kernel, {dim3(1), dim3(threads)}, d_input.data(), count, output.data(), kept.data());
  for (int k : kept.to_host()) ASSERT_EQ(k, static_cast<int>(expected.size()));
  auto got = output.to_host();
  got.resize(expected.size());
  std::vector<int> sorted_got = got, sorted_expected = expected;
  // Within a thread's part the seed's swap loop reorders; across parts the order is the threads'.
  for (int t = 0, at = 0; t < static_cast<int>(threads); ++t) {
    int n = 0;
    for (int i = t * per_thread; i < (t + 1) * per_thread; ++i) n += input[i] % 3 == 0;
    std::sort(sorted_got.begin() + at, sorted_got.begin() + at + n);
    std::sort(sorted_expected.begin() + at, sorted_expected.begin() + at + n);
    at += n;
  }
  EXPECT_EQ(sorted_got, sorted_expected);
}

TEST(ModelExampleCollectives, StreamCompactionOnATile) { check_compaction(seed_compaction_tile, 32); }
TEST(ModelExampleCollectives, StreamCompactionOnABlock) { check_compaction(compaction_block, 200); }

}  // namespace
