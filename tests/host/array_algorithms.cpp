// The host's native whole-array reduce and scans: against serial references,
// over sizes that split into several worker parts unevenly, for cohort's
// operators (reduced in vector lanes) and an operator that is associative but
// not commutative (applied strictly in order).
#include <gtest/gtest.h>

#include <cohort/detail/host/algorithms/array_algorithms.hpp>
#include <cstdint>
#include <random>
#include <vector>

namespace {

namespace host = cohort::detail::host;

// Sizes around one part, several parts, and a part boundary plus one.
const std::size_t sizes[] = {0,
                             1,
                             2,
                             63,
                             64,
                             65,
                             1000,
                             host::min_part_elements - 1,
                             3 * host::min_part_elements + 7,
                             (std::size_t{1} << 20) + 13};

std::vector<std::uint32_t> random_values(std::size_t n, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<std::uint32_t> v(n);
  for (auto& x : v) x = rng();
  return v;
}

// Composition of affine maps x -> a*x + b modulo 2^32, packed in 64 bits:
// associative, not commutative, so any reordering changes the result.
struct compose {
  std::uint64_t operator()(std::uint64_t f, std::uint64_t g) const {
    const std::uint32_t fa = static_cast<std::uint32_t>(f >> 32), fb = static_cast<std::uint32_t>(f);
    const std::uint32_t ga = static_cast<std::uint32_t>(g >> 32), gb = static_cast<std::uint32_t>(g);
    return (std::uint64_t{fa * ga} << 32) | (fb * ga + gb);  // g after f
  }
};

std::vector<std::uint64_t> random_maps(std::size_t n, std::uint32_t seed) {
  std::vector<std::uint64_t> v(n);
  std::mt19937 rng(seed);
  for (auto& x : v) x = (std::uint64_t{rng() | 1u} << 32) | rng();
  return v;
}

template <class T, class Op>
void expect_reduce_matches(const std::vector<T>& in, Op op, T identity) {
  T expected = identity;
  if (!in.empty()) {
    expected = in[0];
    for (std::size_t i = 1; i < in.size(); ++i) expected = op(expected, in[i]);
  }
  T got = static_cast<T>(0xDEADBEEF);  // poisoned
  host::host_reduce(in.data(), in.size(), &got, op);
  EXPECT_EQ(got, expected) << "n = " << in.size();
}

template <class T, class Op>
void expect_scans_match(const std::vector<T>& in, Op op, T init) {
  const std::size_t n = in.size();
  std::vector<T> inclusive(n), exclusive(n);
  for (std::size_t i = 0; i < n; ++i) {
    exclusive[i] = i == 0 ? init : op(exclusive[i - 1], in[i - 1]);
    inclusive[i] = i == 0 ? in[0] : op(inclusive[i - 1], in[i]);
  }
  std::vector<T> out(n, static_cast<T>(0xDEADBEEF));
  host::host_inclusive_scan(in.data(), out.data(), n, op);
  EXPECT_EQ(out, inclusive) << "inclusive, n = " << n;
  out.assign(n, static_cast<T>(0xDEADBEEF));
  host::host_exclusive_scan(in.data(), out.data(), n, init, op);
  EXPECT_EQ(out, exclusive) << "exclusive, n = " << n;
  std::vector<T> in_place = in;
  host::host_inclusive_scan(in_place.data(), in_place.data(), n, op);
  EXPECT_EQ(in_place, inclusive) << "inclusive in place, n = " << n;
  in_place = in;
  host::host_exclusive_scan(in_place.data(), in_place.data(), n, init, op);
  EXPECT_EQ(in_place, exclusive) << "exclusive in place, n = " << n;
}

TEST(ArrayAlgorithms, ReduceWithCohortOperators) {
  for (std::size_t n : sizes) {
    const auto in = random_values(n, 7 + static_cast<std::uint32_t>(n));
    expect_reduce_matches(in, cohort::plus<std::uint32_t>{}, 0u);
    expect_reduce_matches(in, cohort::less<std::uint32_t>{}, ~0u);
    expect_reduce_matches(in, cohort::greater<std::uint32_t>{}, 0u);
    expect_reduce_matches(in, cohort::bit_xor<std::uint32_t>{}, 0u);
  }
}

TEST(ArrayAlgorithms, ReduceKeepsTheOrderOfANonCommutativeOperator) {
  for (std::size_t n : sizes) expect_reduce_matches(random_maps(n, 11), compose{}, std::uint64_t{0});
}

TEST(ArrayAlgorithms, FloatSumIsCloseToTheDoubleSum) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> d(-1.0f, 1.0f);
  std::vector<float> in((std::size_t{1} << 22) + 5);
  double exact = 0;
  for (float& x : in) exact += (x = d(rng));
  float got = std::numeric_limits<float>::quiet_NaN();
  host::host_reduce(in.data(), in.size(), &got, cohort::plus<float>{});
  EXPECT_NEAR(got, exact, 0.05);  // a sum near 10^3 of 4M terms, in lanes and parts
}

TEST(ArrayAlgorithms, ScansWithCohortOperators) {
  for (std::size_t n : sizes) {
    const auto in = random_values(n, 5 + static_cast<std::uint32_t>(n));
    expect_scans_match(in, cohort::plus<std::uint32_t>{}, 17u);
    expect_scans_match(in, cohort::greater<std::uint32_t>{}, 0u);
  }
}

TEST(ArrayAlgorithms, ScansKeepTheOrderOfANonCommutativeOperator) {
  const std::uint64_t identity = std::uint64_t{1} << 32;  // x -> 1*x + 0
  for (std::size_t n : sizes) expect_scans_match(random_maps(n, 13), compose{}, identity);
}

}  // namespace
