// The size argument of memcpy_async on both backends: a plain byte or element
// count, or aligned_size_t<N>, a size whose bytes and addresses are multiples
// of N (cuda::aligned_size_t's shape).
#pragma once

#include <cstddef>
#include <type_traits>

#include "cohort/backend.hpp"

namespace cohort {

template <std::size_t Alignment>
struct aligned_size_t {
  static_assert(Alignment > 0 && (Alignment & (Alignment - 1)) == 0, "aligned_size_t<Alignment>: Alignment is a power of two");
  static constexpr std::size_t align = Alignment;
  std::size_t value;
  COHORT_HD constexpr explicit aligned_size_t(std::size_t size) : value(size) {}
  COHORT_HD constexpr operator std::size_t() const { return value; }
};

namespace detail {

template <class L>
struct layout_alignment : std::integral_constant<std::size_t, 0> {};  // 0: a plain count
template <std::size_t Alignment>
struct layout_alignment<aligned_size_t<Alignment>> : std::integral_constant<std::size_t, Alignment> {};

// A size or count: an integer, or an aligned_size_t.
template <class L>
concept copy_layout = std::is_integral_v<L> || layout_alignment<L>::value != 0;

}  // namespace detail
}  // namespace cohort
