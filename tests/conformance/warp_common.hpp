// What the warp-level conformance tests share: values of any type derived
// from a key (the same on host and device), the types they exchange, the
// tile geometry cohort defines (partial last tiles included) and the
// reference rules of the shuffles. Written against the public API only.
#pragma once

#include <cohort/cohort.hpp>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>
#include <vector>

#include "test_support.hpp"

namespace warp_test {

using cohort_test::mix;

// A value of T whose every byte depends on `key` and `salt`; bool gets 0 or 1.
template <class T>
__host__ __device__ T value_of(unsigned key, unsigned salt) {
  unsigned char bytes[sizeof(T)];
  for (unsigned i = 0; i < sizeof(T); ++i)
    bytes[i] = static_cast<unsigned char>(mix(key * 977u + salt * 131u + i) >> 5);
  if constexpr (std::is_same_v<T, bool>) bytes[0] &= 1;
  T v;
  memcpy(&v, bytes, sizeof(T));
  return v;
}

// Types of every size a shuffle moves, as structs of ints and doubles.
struct bytes12 {
  int a, b, c;
};
struct bytes16 {
  double re, im;  // a complex number
};
struct bytes32 {
  long long w[4];
};
struct mixed {  // members of four sizes
  char c, c2;
  short s;
  int i;
  double d;
};

// Equal object representations, so NaNs compare equal to themselves. The
// types here have no padding, which a copy need not preserve.
template <class T>
bool same_bytes(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

// cohort's tiles: the aligned run of `size` ranks holding `rank`, cut short
// at the end of a block of `threads` threads.
struct tile_place {
  unsigned base, count, rank;
};
inline tile_place place_in_tile(unsigned rank, unsigned size, unsigned threads) {
  const unsigned base = rank / size * size;
  const unsigned count = threads - base < size ? threads - base : size;
  return {base, count, rank - base};
}

// cohort's shuffle rules in rank space (a tile or a coalesced group of
// `count` members): the source of rank r, or r itself when out of range.
// shfl wraps: a coalesced group's source at its member count, a tile's at its
// width, as NVIDIA's; past a partial last tile's members, r itself.
inline unsigned shfl_source(unsigned, unsigned src, unsigned count) { return src % count; }
inline unsigned tile_shfl_source(unsigned r, unsigned src, unsigned width, unsigned count) {
  return src % width < count ? src % width : r;
}
inline unsigned shfl_up_source(unsigned r, unsigned delta, unsigned) { return delta <= r ? r - delta : r; }
inline unsigned shfl_down_source(unsigned r, unsigned delta, unsigned count) {
  return static_cast<unsigned long long>(r) + delta < count ? r + delta : r;
}
inline unsigned shfl_xor_source(unsigned r, unsigned mask, unsigned count) { return (r ^ mask) < count ? r ^ mask : r; }

inline unsigned threads_of(dim3 d) { return d.x * d.y * d.z; }

// Calls f(std::integral_constant<unsigned, N>{}) for every tile size N.
template <class F>
void for_each_tile_size(F&& f) {
  [&]<unsigned... K>(std::integer_sequence<unsigned, K...>) {
    (f(std::integral_constant<unsigned, (1u << K)>{}), ...);
  }(std::make_integer_sequence<unsigned, 11>{});
}

}  // namespace warp_test
