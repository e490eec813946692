// The --sizes parser on its own: every form of the syntax, and the errors.
#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "bench/sizes.hpp"

namespace {

using cohort_cli::parse_sizes;
using sizes = std::vector<std::uint64_t>;

TEST(Sizes, CountsWithBinarySuffixes) {
  EXPECT_EQ(parse_sizes("1"), sizes({1}));
  EXPECT_EQ(parse_sizes("4096,64K,16M,1G"), sizes({4096, 65536, 16777216, 1073741824}));
  EXPECT_EQ(parse_sizes("3k,2m,1g"), sizes({3072, 2097152, 1073741824}));
}

TEST(Sizes, RangesDoubleOrMultiplyByTheFactor) {
  EXPECT_EQ(parse_sizes("64..1024"), sizes({64, 128, 256, 512, 1024}));
  EXPECT_EQ(parse_sizes("1K..16K:4"), sizes({1024, 4096, 16384}));
  // The high end is included only when a step lands on it.
  EXPECT_EQ(parse_sizes("100..1000:3"), sizes({100, 300, 900}));
  EXPECT_EQ(parse_sizes("7..7"), sizes({7}));
}

TEST(Sizes, ResultIsSortedWithoutDuplicates) {
  EXPECT_EQ(parse_sizes("64K,1K,1024,64..256"), sizes({64, 128, 256, 1024, 65536}));
}

TEST(Sizes, BadTermsAreRejectedWithTheirText) {
  for (const char* bad : {"", ",", "1K,", "0", "K", "12X", "1.5M", "-4", "16M..1K", "1K..4K:1", "1K..4K:", "1K..4K:x",
                          "2048G", "1..2..4"}) {
    SCOPED_TRACE(bad);
    EXPECT_THROW(parse_sizes(bad), std::invalid_argument);
  }
  try {
    parse_sizes("64K,12X");
    FAIL() << "12X was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("12X"), std::string::npos) << e.what();
  }
}

}  // namespace
