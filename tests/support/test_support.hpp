// Helpers shared by the test suites of both backends: seeded random inputs
// (the seed is printed on failure), poisoned outputs and launch shorthands.
#pragma once

#include <gtest/gtest.h>

#include <cohort/cohort.hpp>
#include <cstdint>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "common/hash.hpp"

namespace cohort_test {

using cohort_kernels::mix;

// One seed per test, from COHORT_TEST_SEED or the test's name, recorded so a
// failure names it.
inline std::uint64_t test_seed() {
  const char* env = std::getenv("COHORT_TEST_SEED");
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const std::uint64_t seed = env ? std::strtoull(env, nullptr, 10)
                                 : std::hash<std::string>{}(std::string(info->test_suite_name()) + "." + info->name());
  ::testing::Test::RecordProperty("seed", std::to_string(seed));
  return seed;
}

template <class T>
std::vector<T> random_vector(std::size_t n, std::uint64_t seed, T lo, T hi) {
  std::mt19937_64 rng(seed);
  std::vector<T> v(n);
  if constexpr (std::is_floating_point_v<T>) {
    std::uniform_real_distribution<T> d(lo, hi);
    for (auto& x : v) x = d(rng);
  } else {
    std::uniform_int_distribution<long long> d(static_cast<long long>(lo), static_cast<long long>(hi));
    for (auto& x : v) x = static_cast<T>(d(rng));
  }
  return v;
}

// A device buffer filled with a value no kernel writes, so an element left
// unwritten fails the check.
template <class T>
cohort::device_buffer<T> poisoned(std::size_t n, T poison) {
  cohort::device_buffer<T> b(n);
  b.fill(poison);
  return b;
}

inline unsigned long long volume(dim3 d) { return static_cast<unsigned long long>(d.x) * d.y * d.z; }

}  // namespace cohort_test
