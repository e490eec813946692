// Whole-array algorithms (docs/algorithms.md): grid_reduce and the grid scans
// inside cooperative kernels, and device_reduce and the device scans from the
// host, over seeded inputs of odd sizes, misaligned and in place, with int,
// float, double, an 8-byte struct and a non-commutative 32-byte one: every
// result must equal the sequential fold in index order. Outputs start
// poisoned, so an element nobody writes shows.
#include <algorithm>
#include <cstddef>
#include <string>
#include <type_traits>
#include <vector>

#include "collectives_common.hpp"

namespace cg = cohort;

namespace {

// 16 bytes: a 2x2 matrix of 32-bit integers under the (wrapping) product,
// associative but not commutative, so a result in any order but index order shows.
struct mat2x32 {
  unsigned a, b, c, d;
  bool operator==(const mat2x32&) const = default;
};
struct mat2x32_mul {
  __host__ __device__ mat2x32 operator()(const mat2x32& x, const mat2x32& y) const {
    return {x.a * y.a + x.b * y.c, x.a * y.b + x.b * y.d, x.c * y.a + x.d * y.c, x.c * y.b + x.d * y.d};
  }
};

template <class T>
std::vector<T> inputs(std::size_t n, unsigned salt) {
  if constexpr (std::is_same_v<T, mat2x32>) {
    std::vector<T> v(n);
    for (std::size_t i = 0; i < n; ++i) {
      const coll_test::mat2 m = coll_test::value_of<coll_test::mat2>(static_cast<unsigned>(i) + salt * 7919u);
      v[i] = {static_cast<unsigned>(m.a), static_cast<unsigned>(m.b), static_cast<unsigned>(m.c),
              static_cast<unsigned>(m.d)};
    }
    return v;
  } else {
    return coll_test::inputs<T>(n, salt);
  }
}

template <class T>
T value_of(unsigned key) {
  return inputs<T>(1, key)[0];
}

template <class T>
T poison() {
  return value_of<T>(0xdeadbeefu);
}

// The sequential answers: the total (absent for n == 0) and both scans.
template <class T, class Op>
struct expected_scans {
  std::vector<T> inclusive, exclusive;
  bool has_total = false;
  T total{};
};

template <class T, class Op>
expected_scans<T, Op> sequential(const std::vector<T>& in, T init, Op op) {
  expected_scans<T, Op> e;
  T running = init;
  for (std::size_t i = 0; i < in.size(); ++i) {
    e.exclusive.push_back(running);
    running = op(running, in[i]);
    e.total = i == 0 ? in[0] : op(e.total, in[i]);
    e.inclusive.push_back(i == 0 ? in[0] : op(e.inclusive.back(), in[i]));
  }
  e.has_total = !in.empty();
  return e;
}

template <class T>
void expect_elements(const std::vector<T>& got, const std::vector<T>& want, std::size_t offset,
                     const std::string& what) {
  for (std::size_t i = 0; i < want.size(); ++i)
    ASSERT_TRUE(got[offset + i] == want[i]) << what << " differs at element " << i << " of " << want.size();
  for (std::size_t i = 0; i < offset; ++i) ASSERT_TRUE(got[i] == poison<T>()) << what << " wrote before its start";
}

// Every thread's grid_reduce result goes to totals[thread], the stored form
// to *stored; then both scans, each into its own array at the same offset as
// the input (so a misaligned input has a misaligned output).
template <class T, class Op>
__global__ void grid_algorithms(const T* in, std::size_t n, T* totals, T* stored, T* inclusive, T* exclusive, T init) {
  const cg::grid_group grid = cg::this_grid();
  totals[grid.thread_rank()] = cg::grid_reduce(grid, in, n, Op{});
  cg::grid_reduce(grid, in, n, stored, Op{});
  cg::grid_inclusive_scan(grid, in, inclusive, n, Op{});
  cg::grid_exclusive_scan(grid, in, exclusive, n, init, Op{});
}

// In place: data becomes its own inclusive or exclusive scan.
template <class T, class Op>
__global__ void grid_scan_in_place(T* data, std::size_t n, T init, bool inclusive) {
  const cg::grid_group grid = cg::this_grid();
  if (inclusive)
    cg::grid_inclusive_scan(grid, data, data, n, Op{});
  else
    cg::grid_exclusive_scan(grid, data, data, n, init, Op{});
}

struct shape {
  dim3 grid, block;
};

template <class T, class Op>
void check_grid_algorithms(std::size_t n, shape s, std::size_t offset = 0) {
  const std::vector<T> values = inputs<T>(n, static_cast<unsigned>(n * 31 + offset + s.block.x));
  const T init = value_of<T>(static_cast<unsigned>(n) + 7);
  const auto e = sequential(values, init, Op{});
  std::vector<T> padded(offset, poison<T>());
  padded.insert(padded.end(), values.begin(), values.end());
  const std::size_t threads = static_cast<std::size_t>(warp_test::threads_of(s.grid)) * warp_test::threads_of(s.block);

  cg::device_buffer<T> in(padded), totals(threads), stored(1), inclusive(offset + n + 1), exclusive(offset + n + 1);
  for (auto* b : {&totals, &stored, &inclusive, &exclusive}) b->fill(poison<T>());
  cg::launch_cooperative(grid_algorithms<T, Op>, {s.grid, s.block}, in.data() + offset, n, totals.data(), stored.data(),
                         inclusive.data() + offset, exclusive.data() + offset, init);
  const std::vector<T> all = totals.to_host();
  for (std::size_t t = 0; t < threads; ++t)
    ASSERT_TRUE(all[t] == (e.has_total ? e.total : coll_test::identity<T, Op>()))
        << "grid_reduce's result in thread " << t;
  EXPECT_TRUE(stored.to_host()[0] == (e.has_total ? e.total : coll_test::identity<T, Op>()))
      << "grid_reduce's stored result";
  std::vector<T> want_inclusive = e.inclusive, want_exclusive = e.exclusive;
  want_inclusive.push_back(poison<T>());  // nothing past n is written
  want_exclusive.push_back(poison<T>());
  expect_elements(inclusive.to_host(), want_inclusive, offset, "grid_inclusive_scan");
  expect_elements(exclusive.to_host(), want_exclusive, offset, "grid_exclusive_scan");

  for (const bool inclusive : {true, false}) {
    cg::device_buffer<T> data(values);
    cg::launch_cooperative(grid_scan_in_place<T, Op>, {s.grid, s.block}, data.data(), n, init, inclusive);
    expect_elements(data.to_host(), inclusive ? e.inclusive : e.exclusive, 0, "in-place scan");
  }
}

template <class T, class Op>
void check_device_algorithms(std::size_t n, std::size_t offset = 0) {
  const std::vector<T> values = inputs<T>(n, static_cast<unsigned>(n * 17 + offset));
  const T init = value_of<T>(static_cast<unsigned>(n) + 3);
  const auto e = sequential(values, init, Op{});
  std::vector<T> padded(offset, poison<T>());
  padded.insert(padded.end(), values.begin(), values.end());

  cg::device_buffer<T> in(padded), total(1), inclusive(offset + n + 1), exclusive(offset + n + 1);
  for (auto* b : {&total, &inclusive, &exclusive}) b->fill(poison<T>());
  // Twice, so that the second launch finds the scratch the first one left.
  for (int round = 0; round < 2; ++round) {
    cg::device_reduce(in.data() + offset, n, total.data(), Op{});
    cg::device_inclusive_scan(in.data() + offset, inclusive.data() + offset, n, Op{});
    cg::device_exclusive_scan(in.data() + offset, exclusive.data() + offset, n, init, Op{});
    cg::device_synchronize();
    EXPECT_TRUE(total.to_host()[0] == (e.has_total ? e.total : coll_test::identity<T, Op>()))
        << "device_reduce, round " << round;
    std::vector<T> want_inclusive = e.inclusive, want_exclusive = e.exclusive;
    want_inclusive.push_back(poison<T>());
    want_exclusive.push_back(poison<T>());
    expect_elements(inclusive.to_host(), want_inclusive, offset, "device_inclusive_scan");
    expect_elements(exclusive.to_host(), want_exclusive, offset, "device_exclusive_scan");
  }

  cg::device_buffer<T> data(values), other(values);
  cg::device_inclusive_scan(data.data(), data.data(), n, Op{});
  cg::device_exclusive_scan(other.data(), other.data(), n, init, Op{});
  cg::device_synchronize();
  expect_elements(data.to_host(), e.inclusive, 0, "in-place device_inclusive_scan");
  expect_elements(other.to_host(), e.exclusive, 0, "in-place device_exclusive_scan");
}

const std::size_t sizes[] = {0, 1, 33, 4096, 4097, (std::size_t{1} << 20) + 7};
// 1-D blocks of whole warps (the GPU's tiles), of a partial warp, and 2-D.
const shape shapes[] = {{dim3(4), dim3(256)}, {dim3(3), dim3(96)}, {dim3(2, 2), dim3(8, 8)}};

template <class T, class Op>
void check_all(std::size_t offset = 0) {
  for (const std::size_t n : sizes)
    for (const shape& s : shapes) {
      SCOPED_TRACE("n = " + std::to_string(n) + ", block of " + std::to_string(warp_test::threads_of(s.block)));
      check_grid_algorithms<T, Op>(n, s, offset);
      if (::testing::Test::HasFatalFailure()) return;
    }
  for (const std::size_t n : sizes) {
    SCOPED_TRACE("device algorithms, n = " + std::to_string(n));
    check_device_algorithms<T, Op>(n, offset);
    if (::testing::Test::HasFatalFailure()) return;
  }
}

TEST(GridAlgorithms, PlusOverInt) { check_all<int, cg::plus<int>>(); }
TEST(GridAlgorithms, PlusOverIntMisaligned) { check_all<int, cg::plus<int>>(1); }
TEST(GridAlgorithms, PlusOverFloat) { check_all<float, cg::plus<float>>(); }
TEST(GridAlgorithms, LessOverDouble) { check_all<double, cg::less<double>>(); }
TEST(GridAlgorithms, GreaterOverDoubleMisaligned) { check_all<double, cg::greater<double>>(3); }
TEST(GridAlgorithms, BitXorOverUnsigned) { check_all<unsigned, cg::bit_xor<unsigned>>(); }
TEST(GridAlgorithms, UserOperatorOverStruct) { check_all<coll_test::pair8, coll_test::pair_op>(); }
TEST(GridAlgorithms, NonCommutativeMatrixProductInIndexOrder) { check_all<mat2x32, mat2x32_mul>(); }

// A grid as large as the device holds, where the GPU's tiles are spread over every block.
TEST(GridAlgorithms, ResidentGrid) {
  const int blocks = cg::max_cooperative_grid(grid_algorithms<int, cg::plus<int>>, 256);
  const unsigned grid = static_cast<unsigned>(blocks < 64 ? blocks : 64);
  check_grid_algorithms<int, cg::plus<int>>((std::size_t{1} << 20) + 7, {dim3(grid), dim3(256)});
  check_grid_algorithms<mat2x32, mat2x32_mul>(100003, {dim3(grid), dim3(256)});
}

// Many blocks of one warp: block 0 folds more blocks' totals than its
// threads load in one pass, and at 2^18 elements most blocks load nothing
// (grid_reduce's stored form gives each loading block's threads four vectors).
TEST(GridAlgorithms, ManyBlocksOfOneWarp) {
  const int most = cg::max_cooperative_grid(grid_algorithms<double, cg::plus<double>>, 32);
  const unsigned grid = static_cast<unsigned>(most < 2048 ? most : 2048);
  check_grid_algorithms<int, cg::plus<int>>((std::size_t{1} << 18) + 7, {dim3(grid), dim3(32)});
  check_grid_algorithms<double, cg::plus<double>>((std::size_t{1} << 18) + 7, {dim3(grid), dim3(32)});
}

// grid_reduce into an address, call after call with no grid.sync() between,
// so that blocks run ahead into their next call while the last block of the
// one before may not have arrived: block `late` sleeps before its first
// call. The sizes leave different numbers of blocks with data in each call
// (none at n == 0).
const std::size_t stored_sizes[] = {(std::size_t{1} << 18) + 3, 1, 5000, 0, std::size_t{1} << 18, 33, 65537, 7};
constexpr unsigned stored_calls = sizeof stored_sizes / sizeof stored_sizes[0];

template <class T, class Op>
__global__ void stored_reduces(const T* in, const std::size_t* sizes, T* stored, unsigned late) {
  const cg::grid_group grid = cg::this_grid();
  if (grid.block_rank() == late && grid.thread_rank() % 64 == 0) __nanosleep(20000);
  for (unsigned call = 0; call < stored_calls; ++call) cg::grid_reduce(grid, in, sizes[call], stored + call, Op{});
}

template <class T, class Op>
void check_stored_reduces(shape s, unsigned late, unsigned launches) {
  const std::vector<T> values = inputs<T>(stored_sizes[0], late + s.grid.x);
  std::vector<T> want;
  for (const std::size_t n : stored_sizes) {
    const std::vector<T> prefix(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(n));
    const auto e = sequential(prefix, T{}, Op{});
    want.push_back(e.has_total ? e.total : coll_test::identity<T, Op>());
  }
  cg::device_buffer<T> in(values), stored(stored_calls);
  cg::device_buffer<std::size_t> sizes(std::vector<std::size_t>(std::begin(stored_sizes), std::end(stored_sizes)));
  for (unsigned launch = 0; launch < launches; ++launch) {
    stored.fill(poison<T>());
    cg::launch_cooperative(stored_reduces<T, Op>, {s.grid, s.block}, in.data(), sizes.data(), stored.data(), late);
    const std::vector<T> got = stored.to_host();
    for (unsigned call = 0; call < stored_calls; ++call)
      ASSERT_TRUE(got[call] == want[call]) << "launch " << launch << ", call " << call << " (n = " << stored_sizes[call]
                                           << "), block " << late << " late";
  }
}

// Launches of different grids one after another on one stream share the
// stored reduce's state: a larger grid meets blocks that never arrived before.
TEST(GridAlgorithms, StoredReducesBackToBack) {
  const int most = std::min({cg::max_cooperative_grid(stored_reduces<int, cg::plus<int>>, 64),
                             cg::max_cooperative_grid(stored_reduces<double, cg::plus<double>>, 64), 1024});
  const auto large = static_cast<unsigned>(most);
  const shape shapes_in_turn[] = {{dim3(3), dim3(96)},
                                  {dim3(large), dim3(64)},
                                  {dim3(2, 2), dim3(8, 8)},
                                  {dim3(large), dim3(64)},
                                  {dim3(5), dim3(256)}};
  unsigned turn = 0;
  for (const shape& s : shapes_in_turn) {
    const unsigned blocks = warp_test::threads_of(s.grid), late = (turn++ * 7919u) % blocks;
    SCOPED_TRACE(std::to_string(blocks) + " blocks of " + std::to_string(warp_test::threads_of(s.block)));
    check_stored_reduces<int, cg::plus<int>>(s, late, 2);
    check_stored_reduces<double, cg::plus<double>>(s, blocks - 1 - late, 1);
    if (::testing::Test::HasFatalFailure()) return;
  }
}

}  // namespace
