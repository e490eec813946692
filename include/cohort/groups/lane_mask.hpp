// cohort::lane_mask<Bits>: one bit per rank of a group too wide for a 64-bit
// integer. ballot() and match_any() of tiles of 128 to 1024 threads return it
// (tiles up to 32 return unsigned, tiles of 64 unsigned long long), so every
// rank of the tile has its bit. Bit r belongs to the member of rank r.
#pragma once

#include <cstdint>

#include "cohort/backend.hpp"

namespace cohort {

template <unsigned Bits>
class lane_mask {
  static_assert(Bits >= 64 && Bits % 64 == 0, "lane_mask holds a whole number of 64-bit words");

 public:
  static constexpr unsigned word_count = Bits / 64;

  COHORT_HD static constexpr unsigned size() { return Bits; }

  COHORT_HD constexpr bool test(unsigned rank) const { return (words_[rank / 64] >> (rank % 64)) & 1u; }
  COHORT_HD constexpr bool operator[](unsigned rank) const { return test(rank); }
  COHORT_HD constexpr lane_mask& set(unsigned rank, bool value = true) {
    const std::uint64_t bit = std::uint64_t{1} << (rank % 64);
    words_[rank / 64] = value ? words_[rank / 64] | bit : words_[rank / 64] & ~bit;
    return *this;
  }
  COHORT_HD constexpr lane_mask& reset(unsigned rank) { return set(rank, false); }
  // Bits [64 i, 64 i + 64) as an integer, rank 64 i in bit 0.
  COHORT_HD constexpr std::uint64_t word(unsigned i) const { return words_[i]; }
  COHORT_HD constexpr lane_mask& set_word(unsigned i, std::uint64_t bits) {
    words_[i] = bits;
    return *this;
  }

  COHORT_HD constexpr unsigned count() const {
    unsigned n = 0;
    for (std::uint64_t w : words_) n += popcount64(w);
    return n;
  }
  COHORT_HD constexpr bool any() const {
    for (std::uint64_t w : words_)
      if (w) return true;
    return false;
  }
  COHORT_HD constexpr bool none() const { return !any(); }

  COHORT_HD friend constexpr bool operator==(const lane_mask& a, const lane_mask& b) {
    for (unsigned i = 0; i < word_count; ++i)
      if (a.words_[i] != b.words_[i]) return false;
    return true;
  }
  COHORT_HD constexpr lane_mask& operator&=(const lane_mask& o) {
    for (unsigned i = 0; i < word_count; ++i) words_[i] &= o.words_[i];
    return *this;
  }
  COHORT_HD constexpr lane_mask& operator|=(const lane_mask& o) {
    for (unsigned i = 0; i < word_count; ++i) words_[i] |= o.words_[i];
    return *this;
  }
  COHORT_HD constexpr lane_mask& operator^=(const lane_mask& o) {
    for (unsigned i = 0; i < word_count; ++i) words_[i] ^= o.words_[i];
    return *this;
  }
  COHORT_HD constexpr lane_mask operator~() const {
    lane_mask r = *this;
    for (std::uint64_t& w : r.words_) w = ~w;
    return r;
  }
  COHORT_HD friend constexpr lane_mask operator&(lane_mask a, const lane_mask& b) { return a &= b; }
  COHORT_HD friend constexpr lane_mask operator|(lane_mask a, const lane_mask& b) { return a |= b; }
  COHORT_HD friend constexpr lane_mask operator^(lane_mask a, const lane_mask& b) { return a ^= b; }

 private:
  // Written out rather than std::popcount so that device code needs no
  // relaxed-constexpr flag; counting a mask is never on a hot path.
  COHORT_HD static constexpr unsigned popcount64(std::uint64_t w) {
    unsigned n = 0;
    for (; w; w &= w - 1) ++n;
    return n;
  }

  std::uint64_t words_[word_count]{};
};

}  // namespace cohort
