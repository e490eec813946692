// What the collective conformance tests share: the value types (int,
// unsigned, 64-bit, float, double, an 8-byte and a 32-byte struct with custom
// operators, the latter non-commutative), inputs derived from a key, the
// identity each operator's exclusive scan gives rank 0 (docs/collectives.md),
// and the reference: a fold in rank order (on a grid, of the blocks' folds in
// block order), which is cohort's defined order. Inputs keep floating-point
// sums exact, so that any order a backend uses gives the same bits; the host's
// order itself is pinned by tests/host/collectives_order.cpp.
#pragma once

#include <cohort/cohort.hpp>
#include <cstdint>
#include <limits>
#include <optional>
#include <type_traits>
#include <vector>

#include "test_support.hpp"
#include "warp_common.hpp"

namespace coll_test {

using warp_test::mix;

// 8 bytes: a running sum and a peak.
struct pair8 {
  int sum, peak;
  bool operator==(const pair8&) const = default;
};
struct pair_op {
  __host__ __device__ pair8 operator()(pair8 a, pair8 b) const {
    return {a.sum + b.sum, a.peak < b.peak ? b.peak : a.peak};
  }
};

// 32 bytes: a 2x2 matrix of 64-bit integers; products (wrapping) are
// associative but not commutative, so a result in any order but rank order shows.
struct mat2 {
  unsigned long long a, b, c, d;
  bool operator==(const mat2&) const = default;
};
struct mat_mul {
  __host__ __device__ mat2 operator()(const mat2& x, const mat2& y) const {
    return {x.a * y.a + x.b * y.c, x.a * y.b + x.b * y.d, x.c * y.a + x.d * y.c, x.c * y.b + x.d * y.d};
  }
};

// The input of `key`: small integers for arithmetic types (sums stay exact and
// in range), any bits for the structs.
template <class T>
__host__ __device__ T value_of(unsigned key) {
  const unsigned m = mix(key * 2654435761u + 12345u);
  if constexpr (std::is_same_v<T, pair8>) {
    return {static_cast<int>(m % 2001) - 1000, static_cast<int>(mix(m))};
  } else if constexpr (std::is_same_v<T, mat2>) {
    return {m | 1ull, mix(m + 1), mix(m + 2), mix(m + 3) | 1ull};
  } else if constexpr (std::is_unsigned_v<T>) {
    return static_cast<T>(m);
  } else {
    return static_cast<T>(static_cast<int>(m % 2001) - 1000);
  }
}

// The operator's identity, as docs/collectives.md defines it.
template <class T, class Op>
T identity() {
  using L = std::numeric_limits<T>;
  if constexpr (std::is_same_v<Op, cohort::less<T>>)
    return L::has_infinity ? L::infinity() : L::max();
  else if constexpr (std::is_same_v<Op, cohort::greater<T>>)
    return L::has_infinity ? -L::infinity() : L::lowest();
  else if constexpr (std::is_same_v<Op, cohort::bit_and<T>>)
    return static_cast<T>(~T{});
  else
    return T{};
}

// What each member of a group receives, in rank order.
template <class T>
struct folded {
  T total;
  std::vector<T> inclusive, exclusive;
};

template <class T, class Op>
folded<T> fold(const std::vector<T>& values, const Op& op, std::optional<T> before = std::nullopt) {
  folded<T> f{values[0], {}, {}};
  std::optional<T> acc = before;
  for (const T& v : values) {
    f.exclusive.push_back(acc ? *acc : identity<T, Op>());
    acc = acc ? op(*acc, v) : v;
    f.inclusive.push_back(*acc);
  }
  f.total = *acc;
  return f;
}

// A grid: each block's values folded in rank order, the block totals in block
// order, and each block's scans started from what the blocks before it fold to.
template <class T, class Op>
folded<T> fold_grid(const std::vector<T>& values, unsigned block_threads, const Op& op) {
  const unsigned blocks = static_cast<unsigned>(values.size()) / block_threads;
  std::vector<folded<T>> per_block;
  for (unsigned b = 0; b < blocks; ++b)
    per_block.push_back(
        fold(std::vector<T>(values.begin() + b * block_threads, values.begin() + (b + 1) * block_threads), op));
  folded<T> grid{};
  std::optional<T> before;
  for (unsigned b = 0; b < blocks; ++b) {
    const folded<T>& f = per_block[b];
    for (unsigned r = 0; r < block_threads; ++r) {
      grid.inclusive.push_back(before ? op(*before, f.inclusive[r]) : f.inclusive[r]);
      grid.exclusive.push_back(r > 0 ? (before ? op(*before, f.exclusive[r]) : f.exclusive[r])
                                     : (before ? *before : identity<T, Op>()));
    }
    before = before ? op(*before, f.total) : f.total;
  }
  grid.total = *before;
  return grid;
}

template <class T>
std::vector<T> inputs(std::size_t n, unsigned salt) {
  std::vector<T> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = value_of<T>(static_cast<unsigned>(i) + salt * 7919u);
  return v;
}

inline unsigned warp_size() {
  return static_cast<unsigned>(cohort::get_device_attribute(cohort::device_attribute::warp_size));
}

// One (type, operator) pair of the matrix.
template <class T, class Op>
struct op_case {
  using type = T;
  using op = Op;
};

}  // namespace coll_test
