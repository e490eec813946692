// Seeded random inputs for the examples and `cohort bench`. The generator is
// splitmix64, spelled out here rather than taken from <random>, because the
// standard distributions differ between library implementations and a seed
// must name the same input everywhere (CI, a laptop, the GPU machine).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace cohort_kernels {

inline constexpr std::uint64_t default_seed = 2024;

class splitmix64 {
 public:
  explicit splitmix64(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }

 private:
  std::uint64_t state_;
};

// Uniform in [-1, 1), in steps of 2^-23 so that every value is an exact float.
// Mixed signs keep partial sums small, so a float sum stays close to the
// exact one in any summation order and the tolerance can be tight.
inline std::vector<float> random_floats(std::size_t n, std::uint64_t seed = default_seed) {
  splitmix64 g(seed);
  std::vector<float> v(n);
  for (float& x : v) x = static_cast<float>(static_cast<std::int64_t>(g.next() >> 40) - (1 << 23)) / (1 << 23);
  return v;
}

// Uniform integers in [-100, 100]: scans over them are exact in int, so a
// scan is checked element for element without tolerance.
inline std::vector<int> random_ints(std::size_t n, std::uint64_t seed = default_seed) {
  splitmix64 g(seed);
  std::vector<int> v(n);
  for (int& x : v) x = static_cast<int>(g.next() % 201) - 100;
  return v;
}

}  // namespace cohort_kernels
