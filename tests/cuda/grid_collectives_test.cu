// Grid-wide collectives on grids larger than the conformance suite's: past
// barrier_flat_blocks the grid barrier runs on split counters (and past
// barrier_polled_blocks on their published flags) and the collectives take
// their exchange half's parity from the counters' generation, and at full
// occupancy every block of the device takes part.
// Reduce and both scans with a commutative and a non-commutative operator,
// back to back, against the CPU; and two such kernels at once on two streams,
// each with its own slot.
#include <gtest/gtest.h>

#include <algorithm>
#include <cohort/cohort.hpp>
#include <optional>
#include <vector>

#include "test_support.hpp"

namespace cg = cohort;

namespace {

// 2x2 matrices of wrapping 32-bit integers: associative, not commutative.
struct mat {
  unsigned a, b, c, d;
  __host__ __device__ bool operator==(const mat& o) const { return a == o.a && b == o.b && c == o.c && d == o.d; }
};
struct mat_mul {
  __host__ __device__ mat operator()(const mat& x, const mat& y) const {
    return {x.a * y.a + x.b * y.c, x.a * y.b + x.b * y.d, x.c * y.a + x.d * y.c, x.c * y.b + x.d * y.d};
  }
};

template <class T, class Op>
__global__ void scans(const T* in, T* out, int rounds) {
  const cg::grid_group grid = cg::this_grid();
  const unsigned long long g = grid.thread_rank(), n = grid.num_threads();
  for (int r = 0; r < rounds; ++r) {
    out[g] = cg::reduce(grid, in[g], Op());
    out[n + g] = cg::inclusive_scan(grid, in[g], Op());
    out[2 * n + g] = cg::exclusive_scan(grid, in[g], Op());
  }
}

template <class T>
T input(unsigned i) {
  if constexpr (std::is_same_v<T, mat>)
    return {i * 2654435761u | 1u, i * 40503u, i ^ 0x5bd1e995u, (i * 97u) | 1u};
  else
    return static_cast<T>(i * 2654435761u % 1000u);
}

// One launch's inputs and outputs: prepared, launched without waiting, then checked.
template <class T, class Op>
struct run {
  unsigned blocks, threads, total;
  std::vector<T> in;
  cg::device_buffer<T> d_in, out;

  run(unsigned blocks_, unsigned threads_)
      : blocks(blocks_), threads(threads_), total(blocks_ * threads_), in(inputs(total)), d_in(in), out(3 * total) {}

  run& launch(int rounds, cg::stream_t stream = {}) {
    cg::launch_cooperative(scans<T, Op>, {dim3(blocks), dim3(threads), 0, stream}, d_in.data(), out.data(), rounds);
    return *this;
  }

  static std::vector<T> inputs(unsigned n) {
    std::vector<T> v(n);
    for (unsigned i = 0; i < n; ++i) v[i] = input<T>(i);
    return v;
  }

  void check() {
    const std::vector<T> got = out.to_host();
    const Op op;
    std::optional<T> acc;
    std::vector<T> inclusive(total), exclusive(total);
    for (unsigned i = 0; i < total; ++i) {
      if (acc) exclusive[i] = *acc;
      acc = acc ? op(*acc, in[i]) : in[i];
      inclusive[i] = *acc;
    }
    for (unsigned i = 0; i < total; ++i) {
      ASSERT_TRUE(got[i] == *acc) << "reduce at grid rank " << i << " of " << blocks << " blocks";
      ASSERT_TRUE(got[total + i] == inclusive[i]) << "inclusive_scan at grid rank " << i << " of " << blocks;
      if (i > 0)
        ASSERT_TRUE(got[2 * total + i] == exclusive[i]) << "exclusive_scan at grid rank " << i << " of " << blocks;
    }
  }
};

TEST(GridCollectivesLarge, SeveralBarrierGroupsAndFullOccupancy) {
  const unsigned sms = static_cast<unsigned>(cg::get_device_properties().multiprocessor_count);
  for (const unsigned threads : {64u, 256u}) {
    const unsigned full = static_cast<unsigned>(std::min(cg::max_cooperative_grid(scans<int, cg::plus<int>>, threads),
                                                         cg::max_cooperative_grid(scans<mat, mat_mul>, threads)));
    for (const unsigned blocks : {33u, 2 * sms + 1, cg::detail::gpu::barrier_flat_blocks + 1,
                                  cg::detail::gpu::barrier_polled_blocks + 1, full}) {
      if (blocks > full) continue;
      run<int, cg::plus<int>>(blocks, threads).launch(3).check();
      run<mat, mat_mul>(blocks, threads).launch(3).check();
    }
  }
}

TEST(GridCollectivesLarge, TwoKernelsAtOnceOnTwoStreams) {
  const unsigned sms = static_cast<unsigned>(cg::get_device_properties().multiprocessor_count);
  cg::stream first, second;
  const unsigned blocks = std::max(33u, sms);
  // Both prepared first: a copy on the legacy stream between the launches would wait for the first.
  run<int, cg::plus<int>> sums(blocks, 64);
  run<mat, mat_mul> products(blocks, 64);
  sums.launch(20, first.get());
  products.launch(20, second.get());
  sums.check();
  products.check();
}

}  // namespace
