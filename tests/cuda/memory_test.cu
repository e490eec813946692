// The device-memory API on the CUDA runtime: allocation, the three copies,
// fill of any trivially copyable type, device_buffer, and allocation failure.
#include <gtest/gtest.h>

#include <cohort/cohort.hpp>
#include <cstring>
#include <string>

#include "test_support.hpp"

namespace cg = cohort;

namespace {

struct odd_sized {
  unsigned char bytes[13];
  double value;
  bool operator==(const odd_sized& o) const { return std::memcmp(this, &o, sizeof o) == 0; }
};

TEST(Memory, CopiesRoundTrip) {
  const auto values = cohort_test::random_vector<long long>(100003, cohort_test::test_seed(), -(1ll << 40), 1ll << 40);
  long long* a = cg::malloc_device<long long>(values.size());
  long long* b = cg::malloc_device<long long>(values.size());
  cg::copy_to_device(a, values.data(), values.size());
  cg::copy_on_device(b, a, values.size());
  std::vector<long long> back(values.size(), 0);
  cg::copy_to_host(back.data(), b, back.size());
  EXPECT_EQ(back, values);
  cg::free_device(a);
  cg::free_device(b);
}

TEST(Memory, FillReplicatesAnyTriviallyCopyableValue) {
  odd_sized pattern{};
  for (int i = 0; i < 13; ++i) pattern.bytes[i] = static_cast<unsigned char>(0xA0 + i);
  pattern.value = -3.25;
  // Sizes around the fill kernel's grid: less than a block, a partial block, more than its grid covers.
  for (std::size_t n : {std::size_t{1}, std::size_t{255}, std::size_t{257}, std::size_t{4096 * 256 + 3}}) {
    cg::device_buffer<odd_sized> d(n);
    d.fill(pattern);
    const auto got = d.to_host();
    ASSERT_EQ(got.size(), n);
    for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(got[i], pattern) << "element " << i << " of " << n;
  }
}

TEST(Memory, DeviceBufferFromAndToHost) {
  const auto values = cohort_test::random_vector<float>(777, cohort_test::test_seed(), -1.0f, 1.0f);
  cg::device_buffer<float> d(values);
  EXPECT_EQ(d.size(), values.size());
  EXPECT_EQ(d.to_host(), values);
  auto changed = values;
  for (auto& v : changed) v *= 2;
  d.from_host(changed);
  EXPECT_EQ(d.to_host(), changed);

  cg::device_buffer<float> moved(std::move(d));
  EXPECT_EQ(moved.to_host(), changed);
  EXPECT_EQ(d.data(), nullptr);
}

TEST(Memory, EmptyBuffersAndCopiesAreNoOps) {
  cg::device_buffer<int> empty(0);
  EXPECT_EQ(empty.data(), nullptr);
  EXPECT_TRUE(empty.to_host().empty());
  empty.fill(3);
  cg::copy_to_device<int>(nullptr, nullptr, 0);
}

TEST(Memory, AllocationFailureSaysHowMuchIsFree) {
  try {
    cg::malloc_device<char>(std::size_t{1} << 50);
    FAIL() << "a petabyte allocation succeeded";
  } catch (const cg::error& e) {
    EXPECT_EQ(e.kind(), cg::errc::out_of_memory);
    EXPECT_NE(std::string(e.what()).find("bytes free"), std::string::npos) << e.what();
  }
  // The failure left no error behind.
  cg::device_buffer<int> fine(16);
  fine.fill(1);
  EXPECT_EQ(fine.to_host(), std::vector<int>(16, 1));
}

}  // namespace
