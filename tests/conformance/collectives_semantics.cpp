// The semantics docs/collectives.md decides where NVIDIA leaves them open,
// pinned on both backends: what an exclusive scan gives rank 0 for each
// operator (its identity; T{} for an operator cohort doesn't know), what the
// *_update forms give it (the atomic's old value), and that the operator and
// its operands keep rank order (a non-commutative operator is not reordered).
#include <limits>

#include "collectives_common.hpp"

namespace cg = cohort;

namespace {

struct first_of {  // associative, not commutative, and not one of cohort's
  __host__ __device__ int operator()(int a, int) const { return a; }
};

__global__ void rank_zero_results(int* ints, float* floats, coll_test::pair8* pairs, int* old) {
  const auto self = cg::tiled_partition<1>(cg::this_thread_block());
  ints[0] = cg::exclusive_scan(self, 5);
  ints[1] = cg::exclusive_scan(self, 5, cg::plus<int>());
  ints[2] = cg::exclusive_scan(self, 5, cg::less<int>());
  ints[3] = cg::exclusive_scan(self, 5, cg::greater<int>());
  ints[4] = cg::exclusive_scan(self, 5, cg::bit_and<int>());
  ints[5] = cg::exclusive_scan(self, 5, cg::bit_or<int>());
  ints[6] = cg::exclusive_scan(self, 5, cg::bit_xor<int>());
  ints[7] = cg::exclusive_scan(self, 5, first_of());
  floats[0] = cg::exclusive_scan(self, 2.5f);
  floats[1] = cg::exclusive_scan(self, 2.5f, cg::less<float>());
  floats[2] = cg::exclusive_scan(self, 2.5f, cg::greater<float>());
  pairs[0] = cg::exclusive_scan(self, coll_test::pair8{3, 4}, coll_test::pair_op());
  old[1] = cg::exclusive_scan_update(self, cg::atomic_ref<int>(old[0]), 5, cg::less<int>());
}

TEST(CollectiveSemantics, ExclusiveScanOfRankZeroIsTheOperatorsIdentity) {
  auto ints = cohort_test::poisoned<int>(8, 77);
  auto floats = cohort_test::poisoned<float>(3, 77.f);
  auto pairs = cohort_test::poisoned<coll_test::pair8>(1, {77, 77});
  cg::device_buffer<int> old(std::vector<int>{42, 77});
  cg::launch(rank_zero_results, {dim3(1), dim3(1)}, ints.data(), floats.data(), pairs.data(), old.data());
  using L = std::numeric_limits<int>;
  EXPECT_EQ(ints.to_host(), (std::vector<int>{0, 0, L::max(), L::min(), -1, 0, 0, 0}));
  const auto f = floats.to_host();
  EXPECT_EQ(f[0], 0.f);
  EXPECT_EQ(f[1], std::numeric_limits<float>::infinity());
  EXPECT_EQ(f[2], -std::numeric_limits<float>::infinity());
  EXPECT_EQ(pairs.to_host()[0], (coll_test::pair8{0, 0}));
  EXPECT_EQ(old.to_host(), (std::vector<int>{5, 42})) << "rank 0 of exclusive_scan_update gets the old value";
}

// first_of folds to rank 0's value whatever the group: a backend that
// combined out of rank order would show it.
__global__ void keeps_rank_order(int* out) {
  const cg::thread_block block = cg::this_thread_block();
  const int v = static_cast<int>(block.thread_rank()) + 100;
  const auto tile = cg::tiled_partition<32>(block);
  out[block.thread_rank()] = cg::reduce(tile, v, first_of()) * 1000 + cg::reduce(block, v, first_of());
  out[block.size() + block.thread_rank()] = cg::inclusive_scan(block, v, first_of());
}

TEST(CollectiveSemantics, OperandsKeepRankOrder) {
  const unsigned threads = 96;
  cg::device_buffer<int> out(2 * threads);
  cg::launch(keeps_rank_order, {dim3(1), dim3(threads)}, out.data());
  const auto got = out.to_host();
  for (unsigned t = 0; t < threads; ++t) {
    ASSERT_EQ(got[t], static_cast<int>(t / 32 * 32 + 100) * 1000 + 100) << "thread " << t;
    ASSERT_EQ(got[threads + t], 100) << "thread " << t;
  }
}

}  // namespace
