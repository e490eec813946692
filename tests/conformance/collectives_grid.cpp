// Grid-wide collectives (beyond NVIDIA) under cooperative launches: reduce
// and the scans over 1-D, 2-D and 3-D grids of 1-D to 3-D blocks; the
// *_update and *_store forms and invoke_one(_broadcast) on the grid; and two
// cooperative kernels running at once, each with its own grid scratch.
#include <thread>

#include "collectives_common.hpp"

namespace cg = cohort;

namespace {

template <class T, class Op>
__global__ void __launch_bounds__(1024) grid_scans(const T* in, T* out, int rounds) {
  const cg::grid_group grid = cg::this_grid();
  const unsigned long long g = grid.thread_rank(), total = grid.num_threads();
  const T v = in[g];
  for (int r = 0; r < rounds; ++r) {  // back-to-back collectives reuse the scratch
    out[g] = cg::reduce(grid, v, Op());
    out[total + g] = cg::inclusive_scan(grid, v, Op());
    out[2 * total + g] = cg::exclusive_scan(grid, v, Op());
  }
}

template <class T, class Op>
void check_grid_scans(dim3 grid_shape, dim3 block_shape, int rounds = 1, cg::stream_t stream = {}) {
  const unsigned threads = warp_test::threads_of(block_shape), blocks = warp_test::threads_of(grid_shape);
  ASSERT_LE(static_cast<int>(blocks), cg::max_cooperative_grid(grid_scans<T, Op>, static_cast<int>(threads)));
  const unsigned total = blocks * threads;
  const std::vector<T> in = coll_test::inputs<T>(total, blocks * 131 + threads);
  cg::device_buffer<T> d_in(in), out(3 * total);
  cg::launch_cooperative(grid_scans<T, Op>, {grid_shape, block_shape, 0, stream}, d_in.data(), out.data(), rounds);
  const std::vector<T> got = out.to_host();
  const auto f = coll_test::fold_grid(in, threads, Op{});
  for (unsigned g = 0; g < total; ++g) {
    ASSERT_TRUE(got[g] == f.total) << "reduce at grid rank " << g;
    ASSERT_TRUE(got[total + g] == f.inclusive[g]) << "inclusive_scan at grid rank " << g;
    ASSERT_TRUE(got[2 * total + g] == f.exclusive[g]) << "exclusive_scan at grid rank " << g;
  }
}

struct grid_case {
  dim3 grid, block;
};

class GridShapes : public ::testing::TestWithParam<grid_case> {};

TEST_P(GridShapes, PlusOverLongLong) {
  check_grid_scans<long long, cg::plus<long long>>(GetParam().grid, GetParam().block);
}
TEST_P(GridShapes, MatrixProductInBlockThenRankOrder) {
  check_grid_scans<coll_test::mat2, coll_test::mat_mul>(GetParam().grid, GetParam().block);
}

INSTANTIATE_TEST_SUITE_P(Shapes, GridShapes,
                         ::testing::Values(grid_case{dim3(1), dim3(1)}, grid_case{dim3(1), dim3(256)},
                                           grid_case{dim3(6), dim3(1)}, grid_case{dim3(5), dim3(96)},
                                           grid_case{dim3(3, 2), dim3(16, 8)}, grid_case{dim3(2, 2, 2), dim3(11, 3, 3)},
                                           grid_case{dim3(2), dim3(1024)}));

TEST(GridCollectives, BackToBackCollectivesReuseTheScratchSafely) {
  check_grid_scans<int, cg::plus<int>>(dim3(4), dim3(64), 50);
}

// Two cooperative kernels at once, from two host threads: each launch has its
// own scratch, so neither sees the other's block totals.
TEST(GridCollectives, TwoCooperativeKernelsAtOnce) {
  cg::stream first, second;
  std::thread other([&] { check_grid_scans<int, cg::plus<int>>(dim3(3), dim3(40), 200, second.get()); });
  check_grid_scans<unsigned, cg::bit_xor<unsigned>>(dim3(2), dim3(72), 200, first.get());
  other.join();
}

// The *_update and *_store forms, invoke_one and invoke_one_broadcast on a grid.
__global__ void grid_updates(const int* in, int* sum, unsigned* low, int* stored, int* incl, int* excl, int* calls,
                             int* broadcast) {
  const cg::grid_group grid = cg::this_grid();
  const unsigned long long g = grid.thread_rank();
  const int v = in[g];
  cg::reduce_update_async(grid, cg::atomic_ref<int>(sum[0]), v, cg::plus<int>());
  cg::reduce_update_async(grid, cg::atomic_ref<unsigned>(*low), static_cast<unsigned>(v + 5000), cg::less<unsigned>());
  cg::reduce_store_async(grid, stored, v, cg::greater<int>());
  incl[g] = cg::inclusive_scan_update(grid, cg::atomic_ref<int>(sum[1]), v);
  excl[g] = cg::exclusive_scan_update(grid, cg::atomic_ref<int>(sum[2]), v, cg::plus<int>());
  cg::invoke_one(grid, [&] { atomicAdd(calls, 1); });
  broadcast[g] = cg::invoke_one_broadcast(grid, [&] { return atomicAdd(calls + 1, 1) + 1000 + static_cast<int>(g); });
}

TEST(GridCollectives, UpdatesStoresAndInvokeOne) {
  const dim3 grid(2, 3), block(5, 7);
  const unsigned total = 6 * 35;
  const std::vector<int> in = coll_test::inputs<int>(total, 77);
  cg::device_buffer<int> d_in(in), sum(std::vector<int>{10, 20, 30}), stored(1), incl(total), excl(total),
      calls(std::vector<int>{0, 0}), broadcast(total);
  cg::device_buffer<unsigned> low(std::vector<unsigned>{~0u});
  cg::launch_cooperative(grid_updates, {grid, block}, d_in.data(), sum.data(), low.data(), stored.data(), incl.data(),
                         excl.data(), calls.data(), broadcast.data());
  int total_sum = 0, peak = -100000, least = 100000;
  for (int v : in) {
    total_sum += v;
    peak = std::max(peak, v);
    least = std::min(least, v);
  }
  EXPECT_EQ(sum.to_host(), (std::vector<int>{10 + total_sum, 20 + total_sum, 30 + total_sum}));
  EXPECT_EQ(low.to_host()[0], static_cast<unsigned>(least + 5000));
  EXPECT_EQ(stored.to_host()[0], peak);
  const auto i = incl.to_host(), e = excl.to_host(), b = broadcast.to_host();
  int prefix = 0;
  for (unsigned g = 0; g < total; ++g) {
    ASSERT_EQ(e[g], 30 + prefix) << "exclusive_scan_update at grid rank " << g;
    prefix += in[g];
    ASSERT_EQ(i[g], 20 + prefix) << "inclusive_scan_update at grid rank " << g;
    ASSERT_EQ(b[g], 1000) << "invoke_one_broadcast: grid rank 0's result, at grid rank " << g;
  }
  EXPECT_EQ(calls.to_host(), (std::vector<int>{1, 1}));
}

}  // namespace
