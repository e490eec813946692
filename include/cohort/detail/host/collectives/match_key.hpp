// A match's value as it travels (__match_*_sync, a tile's match_any/match_all):
// its bytes, zero-padded, in one register of 8 or 16 bytes. Equal keys are equal
// object representations, as the hardware compares values, so comparing keys is
// comparing the values' bytes; and a value of any size up to 16 bytes passes in
// one register of one type, which the loops pass lowers to the block's lane
// arrays (tools/loops-pass/lane_exchange.cpp). The match's result, a lane or
// rank mask, comes back in the key's first 8 bytes. Wider values (17 to 32
// bytes) keep the records: a 32-byte vector is passed in memory without AVX.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace cohort::detail::host {

using match_key_16 = std::uint64_t __attribute__((vector_size(16)));

template <std::size_t Size>
inline constexpr bool has_match_key = Size <= 16;

template <std::size_t Size>
using match_key = std::conditional_t<(Size <= 8), std::uint64_t, match_key_16>;

template <class T>
match_key<sizeof(T)> to_match_key(const T& value) {
  match_key<sizeof(T)> key{};
  std::memcpy(&key, &value, sizeof(T));
  return key;
}

template <class Key>
std::uint64_t match_result(const Key& key) {
  std::uint64_t mask;
  std::memcpy(&mask, &key, sizeof mask);
  return mask;
}

template <class Key>
Key match_result_key(std::uint64_t mask) {
  Key key{};
  std::memcpy(&key, &mask, sizeof mask);
  return key;
}

}  // namespace cohort::detail::host
