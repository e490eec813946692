// grid_inclusive_scan / grid_exclusive_scan's look-back inside a user's
// kernel (grid_look_back_scan.hpp) where the conformance suite's small grids
// do not reach: the whole resident grid and one of a few blocks (many rounds
// through each block's three records), several scans back to back in one
// launch and across launches (each call's epochs), two such kernels at once
// on two streams (each with its slot's records), the restart of the epochs
// when they run out, and grids larger than the records hold.
// A non-commutative operator, so that any fold out of index order shows.
#include <gtest/gtest.h>

#include <cohort/cohort.hpp>
#include <cstddef>
#include <vector>

#include "test_support.hpp"

namespace cg = cohort;

namespace {

struct mat {
  unsigned a, b, c, d;
  __host__ __device__ bool operator==(const mat& o) const { return a == o.a && b == o.b && c == o.c && d == o.d; }
};
struct mat_mul {
  __host__ __device__ mat operator()(const mat& x, const mat& y) const {
    return {x.a * y.a + x.b * y.c, x.a * y.b + x.b * y.d, x.c * y.a + x.d * y.c, x.c * y.b + x.d * y.d};
  }
};

mat input(std::size_t i) {
  const auto k = static_cast<unsigned>(i);
  return {k * 2654435761u | 1u, k * 40503u, k ^ 0x5bd1e995u, (k * 97u) | 1u};
}

// `calls` scans in one launch: inclusive into out[c], exclusive from `init`
// into out[c] for odd c, each call over its own size n - 101 c.
__global__ void scans(const mat* in, mat* out, std::size_t n, int calls, mat init) {
  const cg::grid_group grid = cg::this_grid();
  for (int c = 0; c < calls; ++c) {
    const std::size_t m = n - 101 * static_cast<std::size_t>(c);
    if (c % 2 == 0)
      cg::grid_inclusive_scan(grid, in, out + c * n, m, mat_mul{});
    else
      cg::grid_exclusive_scan(grid, in, out + c * n, m, init, mat_mul{});
  }
}

__global__ void int_scan(const int* in, int* out, std::size_t n) {
  cg::grid_inclusive_scan(cg::this_grid(), in, out, n, cg::plus<int>());
}

struct launch_of_scans {
  std::size_t n;
  int calls;
  mat init{3, 1, 4, 1};
  std::vector<mat> in;
  cg::device_buffer<mat> d_in, out;

  launch_of_scans(std::size_t n_, int calls_) : n(n_), calls(calls_), in(make(n_)), d_in(in), out(n_ * calls_) {
    out.fill(mat{0xdeadbeef, 0, 0, 0});
  }
  static std::vector<mat> make(std::size_t n) {
    std::vector<mat> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = input(i);
    return v;
  }
  void start(unsigned blocks, unsigned threads, cg::stream_t s = {}) {
    cg::launch_cooperative(scans, {dim3(blocks), dim3(threads), 0, s}, d_in.data(), out.data(), n, calls, init);
  }
  void check() {
    const std::vector<mat> got = out.to_host();
    for (int c = 0; c < calls; ++c) {
      const std::size_t m = n - 101 * static_cast<std::size_t>(c);
      mat running = c % 2 ? init : in[0];
      for (std::size_t i = 0; i < m; ++i) {
        if (c % 2) {
          ASSERT_TRUE(got[c * n + i] == running) << "exclusive scan " << c << " at " << i << " of " << m;
          running = mat_mul{}(running, in[i]);
        } else {
          if (i > 0) running = mat_mul{}(running, in[i]);
          ASSERT_TRUE(got[c * n + i] == running) << "inclusive scan " << c << " at " << i << " of " << m;
        }
      }
      if (m < n) ASSERT_TRUE(got[c * n + m].a == 0xdeadbeef) << "scan " << c << " wrote past its end";
    }
  }
};

TEST(GridScan, ResidentGridManyCallsInOneLaunch) {
  const unsigned blocks = static_cast<unsigned>(cg::max_cooperative_grid(scans, 256));
  for (std::size_t n : {std::size_t{1} << 20, std::size_t{3} << 20}) {
    launch_of_scans run(n, 4);
    run.start(blocks, 256);
    run.start(blocks, 256);  // the second launch finds the first one's records
    cg::device_synchronize();
    run.check();
  }
}

TEST(GridScan, FewBlocksManyRounds) {
  for (unsigned threads : {64u, 96u, 160u}) {
    launch_of_scans run((std::size_t{1} << 19) + 13, 3);
    run.start(3, threads);
    cg::device_synchronize();
    run.check();
  }
}

TEST(GridScan, TwoKernelsAtOnce) {
  const unsigned blocks = static_cast<unsigned>(cg::max_cooperative_grid(scans, 256)) / 2;
  cg::stream a, b;
  launch_of_scans first(std::size_t{1} << 20, 3), second((std::size_t{1} << 20) + 5, 3);
  first.start(blocks, 256, a.get());
  second.start(blocks, 256, b.get());
  cg::device_synchronize();
  first.check();
  second.check();
}

TEST(GridScan, EpochsRestartWhenTheyRunOut) {
  // Every slot's last epoch a few short of the end: the next call restarts them.
  std::vector<unsigned> almost(cg::detail::gpu::barrier_pool_slots, cg::detail::gpu::last_epoch - 5);
  ASSERT_EQ(cudaMemcpyToSymbol(cg::detail::gpu::grid_record_epochs<>, almost.data(), almost.size() * sizeof(unsigned)),
            cudaSuccess);
  launch_of_scans run(std::size_t{1} << 20, 4);
  run.start(4, 256);  // 293 tiles of 3584 over 4 blocks: 74 rounds a call
  cg::device_synchronize();
  run.check();
}

// More blocks than the records hold: the first 1365 scan, the others only start.
TEST(GridScan, GridsLargerThanTheRecords) {
  const unsigned blocks = static_cast<unsigned>(cg::max_cooperative_grid(int_scan, 64));
  if (blocks <= cg::detail::gpu::grid_record_lines / cg::detail::gpu::grid_record_rounds)
    GTEST_SKIP() << "the device holds only " << blocks << " blocks of 64 threads";
  const std::size_t n = (std::size_t{1} << 20) + 3;
  std::vector<int> in(n);
  for (std::size_t i = 0; i < n; ++i) in[i] = static_cast<int>(i * 2654435761u % 2001u) - 1000;
  cg::device_buffer<int> d_in(in), out(n);
  cg::launch_cooperative(int_scan, {dim3(blocks), dim3(64)}, d_in.data(), out.data(), n);
  const std::vector<int> got = out.to_host();
  int running = 0;
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(got[i], running += in[i]) << "at " << i;
}

}  // namespace
