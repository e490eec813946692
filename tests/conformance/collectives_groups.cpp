// reduce, inclusive_scan and exclusive_scan for every operator and value type
// on every kind of group: tiles of 1, 8, 32 and 128 threads (partial last
// tiles included), a coalesced group of non-adjacent lanes, the thread block
// (1-D and 3-D, sizes that are not powers of two) and the grid.
#include <cstring>

#include "collectives_common.hpp"

namespace cg = cohort;
using coll_test::op_case;

namespace {

constexpr unsigned kinds = 6;  // tile<1>, tile<8>, tile<32>, tile<128>, coalesced, block

template <class T, class G, class Op>
__device__ void record(const G& group, const T& v, const Op& op, T* out, unsigned kind, unsigned long long total,
                       unsigned long long g) {
  out[(kind * 3 + 0) * total + g] = cg::reduce(group, v, op);
  out[(kind * 3 + 1) * total + g] = cg::inclusive_scan(group, v, op);
  out[(kind * 3 + 2) * total + g] = cg::exclusive_scan(group, v, op);
}

template <class T, class Op>
__global__ void group_collectives(const T* in, T* out) {
  const cg::thread_block block = cg::this_thread_block();
  const unsigned long long total = static_cast<unsigned long long>(gridDim.x) * block.size();
  const unsigned long long g = blockIdx.x * block.size() + block.thread_rank();
  const T v = in[g];
  const Op op;
  record(cg::tiled_partition<1>(block), v, op, out, 0, total, g);
  record(cg::tiled_partition<8>(block), v, op, out, 1, total, g);
  record(cg::tiled_partition<32>(block), v, op, out, 2, total, g);
  record(cg::tiled_partition<128>(block), v, op, out, 3, total, g);
  if (block.thread_rank() % warpSize % 3 != 1) record(cg::coalesced_threads(), v, op, out, 4, total, g);
  record(block, v, op, out, 5, total, g);
}

template <class T, class Op>
__global__ void grid_collectives(const T* in, T* out) {
  const cg::grid_group grid = cg::this_grid();
  const unsigned long long g = grid.thread_rank(), total = grid.num_threads();
  const T v = in[g];
  const Op op;
  out[g] = cg::reduce(grid, v, op);
  out[total + g] = cg::inclusive_scan(grid, v, op);
  out[2 * total + g] = cg::exclusive_scan(grid, v, op);
}

template <class T>
T poison() {
  T p;
  std::memset(&p, 0xEE, sizeof p);
  return p;
}

// The groups of one kind in a grid of `blocks` blocks of `threads`: global
// indices, in rank order.
std::vector<std::vector<unsigned>> groups_of(unsigned kind, unsigned blocks, unsigned threads) {
  static constexpr unsigned tile_sizes[] = {1, 8, 32, 128};
  const unsigned w = coll_test::warp_size();
  std::vector<std::vector<unsigned>> groups;
  for (unsigned b = 0; b < blocks; ++b) {
    const unsigned first = b * threads;
    const unsigned span = kind < 4 ? tile_sizes[kind] : kind == 4 ? w : threads;
    for (unsigned base = 0; base < threads; base += span) {
      std::vector<unsigned> members;
      for (unsigned t = base; t < threads && t < base + span; ++t)
        if (kind != 4 || (t - base) % 3 != 1) members.push_back(first + t);
      groups.push_back(members);
    }
  }
  return groups;
}

template <class T>
void expect_results(const std::vector<T>& got, std::size_t at, const T& expected, const char* what, unsigned kind,
                    unsigned thread) {
  ASSERT_TRUE(got[at] == expected) << what << " of group kind " << kind << " wrong at thread " << thread;
}

template <class Case>
class GroupCollectives : public ::testing::Test {};

using cases =
    ::testing::Types<op_case<int, cg::plus<int>>, op_case<int, cg::less<int>>, op_case<int, cg::greater<int>>,
                     op_case<int, cg::bit_and<int>>, op_case<int, cg::bit_or<int>>, op_case<int, cg::bit_xor<int>>,
                     op_case<unsigned, cg::plus<unsigned>>, op_case<unsigned, cg::less<unsigned>>,
                     op_case<unsigned, cg::greater<unsigned>>, op_case<unsigned, cg::bit_and<unsigned>>,
                     op_case<unsigned, cg::bit_or<unsigned>>, op_case<unsigned, cg::bit_xor<unsigned>>,
                     op_case<long long, cg::plus<long long>>, op_case<long long, cg::less<long long>>,
                     op_case<long long, cg::greater<long long>>, op_case<long long, cg::bit_and<long long>>,
                     op_case<long long, cg::bit_or<long long>>, op_case<long long, cg::bit_xor<long long>>,
                     op_case<float, cg::plus<float>>, op_case<float, cg::less<float>>,
                     op_case<float, cg::greater<float>>, op_case<double, cg::plus<double>>,
                     op_case<double, cg::less<double>>, op_case<double, cg::greater<double>>,
                     op_case<coll_test::pair8, coll_test::pair_op>, op_case<coll_test::mat2, coll_test::mat_mul>>;
TYPED_TEST_SUITE(GroupCollectives, cases);

TYPED_TEST(GroupCollectives, TilesCoalescedGroupsAndBlocks) {
  using T = typename TypeParam::type;
  using Op = typename TypeParam::op;
  const unsigned salt = static_cast<unsigned>(cohort_test::test_seed());
  for (const dim3 shape : {dim3(100), dim3(7, 5, 3)}) {
    const unsigned threads = warp_test::threads_of(shape), blocks = 2, total = blocks * threads;
    const std::vector<T> in = coll_test::inputs<T>(total, salt);
    cg::device_buffer<T> d_in(in);
    auto out = cohort_test::poisoned<T>(kinds * 3 * total, poison<T>());
    cg::launch(group_collectives<T, Op>, {dim3(blocks), shape}, d_in.data(), out.data());
    const std::vector<T> got = out.to_host();
    std::vector<bool> seen(kinds * total);
    for (unsigned kind = 0; kind < kinds; ++kind)
      for (const auto& members : groups_of(kind, blocks, threads)) {
        std::vector<T> values;
        for (unsigned m : members) values.push_back(in[m]);
        const auto f = coll_test::fold(values, Op{});
        for (std::size_t r = 0; r < members.size(); ++r) {
          const unsigned m = members[r];
          seen[kind * total + m] = true;
          expect_results(got, (kind * 3 + 0) * total + m, f.total, "reduce", kind, m);
          expect_results(got, (kind * 3 + 1) * total + m, f.inclusive[r], "inclusive_scan", kind, m);
          expect_results(got, (kind * 3 + 2) * total + m, f.exclusive[r], "exclusive_scan", kind, m);
        }
      }
    for (unsigned m = 0; m < total; ++m)
      if (!seen[4 * total + m]) expect_results(got, 12 * total + m, poison<T>(), "no coalesced group", 4, m);
  }
}

TYPED_TEST(GroupCollectives, Grid) {
  using T = typename TypeParam::type;
  using Op = typename TypeParam::op;
  const unsigned blocks = 3, threads = 50, total = blocks * threads;
  const std::vector<T> in = coll_test::inputs<T>(total, static_cast<unsigned>(cohort_test::test_seed()));
  cg::device_buffer<T> d_in(in);
  auto out = cohort_test::poisoned<T>(3 * total, poison<T>());
  cg::launch_cooperative(grid_collectives<T, Op>, {dim3(blocks), dim3(threads)}, d_in.data(), out.data());
  const std::vector<T> got = out.to_host();
  const auto f = coll_test::fold_grid(in, threads, Op{});
  for (unsigned g = 0; g < total; ++g) {
    expect_results(got, g, f.total, "reduce", 6, g);
    expect_results(got, total + g, f.inclusive[g], "inclusive_scan", 6, g);
    expect_results(got, 2 * total + g, f.exclusive[g], "exclusive_scan", 6, g);
  }
}

}  // namespace
