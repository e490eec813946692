// cohort's device algorithms against CUB's on the same device, on inputs too
// large for the conformance suite's sequential reference to be cheap: many
// tiles, every block of a resident grid, several launches on one scratch
// buffer, and two streams at once (each stream has its own scratch).
#include <gtest/gtest.h>

#include <cohort/cohort.hpp>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cuda/std/functional>
#include <random>
#include <vector>

namespace cg = cohort;

namespace {

void ok(cudaError_t e) { ASSERT_EQ(e, cudaSuccess) << cudaGetErrorString(e); }

std::vector<int> random_ints(std::size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> dist(-1000, 1000);
  std::vector<int> v(n);
  for (int& x : v) x = dist(rng);
  return v;
}

TEST(DeviceAlgorithmsAgainstCub, ScansOfIntMatchElementForElement) {
  for (const std::size_t n : {std::size_t{1} << 20, (std::size_t{1} << 24) + 3, (std::size_t{1} << 26) + 1}) {
    const cg::device_buffer<int> in(random_ints(n, static_cast<unsigned>(n)));
    cg::device_buffer<int> ours(n), theirs(n), scratch(1);
    for (int round = 0; round < 3; ++round) {
      cg::device_inclusive_scan(in.data(), ours.data(), n, cg::plus<int>());
      std::size_t bytes = 0;
      ok(cub::DeviceScan::InclusiveSum(nullptr, bytes, in.data(), theirs.data(), static_cast<int>(n)));
      cg::device_buffer<unsigned char> tmp(bytes);
      ok(cub::DeviceScan::InclusiveSum(tmp.data(), bytes, in.data(), theirs.data(), static_cast<int>(n)));
      ASSERT_EQ(ours.to_host(), theirs.to_host()) << "inclusive, n = " << n << ", round " << round;

      cg::device_exclusive_scan(in.data(), ours.data(), n, 17, cg::plus<int>());
      ok(cub::DeviceScan::ExclusiveScan(nullptr, bytes, in.data(), theirs.data(), cuda::std::plus<int>(), 17,
                                        static_cast<int>(n)));
      cg::device_buffer<unsigned char> tmp2(bytes);
      ok(cub::DeviceScan::ExclusiveScan(tmp2.data(), bytes, in.data(), theirs.data(), cuda::std::plus<int>(), 17,
                                        static_cast<int>(n)));
      ASSERT_EQ(ours.to_host(), theirs.to_host()) << "exclusive, n = " << n << ", round " << round;
    }
  }
}

TEST(DeviceAlgorithmsAgainstCub, ReducesMatch) {
  for (const std::size_t n : {std::size_t{1} << 20, (std::size_t{1} << 24) + 5, std::size_t{1} << 28}) {
    std::mt19937 rng(static_cast<unsigned>(n));
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    std::vector<float> host(n);
    for (float& x : host) x = dist(rng);
    const cg::device_buffer<float> in(host);
    cg::device_buffer<float> out(2);
    cg::device_reduce(in.data(), n, out.data(), cg::plus<float>());
    std::size_t bytes = 0;
    ok(cub::DeviceReduce::Sum(nullptr, bytes, in.data(), out.data() + 1, static_cast<int>(n)));
    cg::device_buffer<unsigned char> tmp(bytes);
    ok(cub::DeviceReduce::Sum(tmp.data(), bytes, in.data(), out.data() + 1, static_cast<int>(n)));
    const std::vector<float> got = out.to_host();
    EXPECT_NEAR(got[0], got[1], 1e-5 * std::sqrt(static_cast<double>(n)) + 1e-3) << "sum, n = " << n;

    cg::device_reduce(in.data(), n, out.data(), cg::greater<float>());
    ok(cub::DeviceReduce::Max(nullptr, bytes, in.data(), out.data() + 1, static_cast<int>(n)));
    cg::device_buffer<unsigned char> tmp2(bytes);
    ok(cub::DeviceReduce::Max(tmp2.data(), bytes, in.data(), out.data() + 1, static_cast<int>(n)));
    const std::vector<float> peak = out.to_host();
    EXPECT_EQ(peak[0], peak[1]) << "max, n = " << n;
  }
}

// Two streams scanning at once: each has its own tile records.
TEST(DeviceAlgorithmsAgainstCub, TwoStreamsAtOnce) {
  const std::size_t n = (std::size_t{1} << 22) + 9;
  const std::vector<int> a = random_ints(n, 1), b = random_ints(n, 2);
  const cg::device_buffer<int> in_a(a), in_b(b);
  cg::device_buffer<int> out_a(n), out_b(n);
  cg::stream first, second;
  for (int round = 0; round < 20; ++round) {
    cg::device_inclusive_scan(in_a.data(), out_a.data(), n, cg::plus<int>(), first.get());
    cg::device_inclusive_scan(in_b.data(), out_b.data(), n, cg::bit_xor<int>(), second.get());
  }
  first.synchronize();
  second.synchronize();
  std::vector<int> want_a(n), want_b(n);
  int sa = 0, sb = 0;
  for (std::size_t i = 0; i < n; ++i) {
    want_a[i] = sa += a[i];
    want_b[i] = sb ^= b[i];
  }
  EXPECT_EQ(out_a.to_host(), want_a);
  EXPECT_EQ(out_b.to_host(), want_b);
}

}  // namespace
