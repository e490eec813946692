// The operators of reduce, the scans and the *_update forms,
// backend neutral: plus, less (the smaller value, not a bool), greater (the
// larger), bit_and, bit_or, bit_xor. Any other callable works as an operator
// too; these are the ones a backend may map to hardware or to a dedicated
// atomic (fetch_add, fetch_min, ...), and the ones whose identity element
// cohort knows (detail::identity_of, the exclusive scan's result at rank 0).
#pragma once

#include <type_traits>

#include "cohort/backend.hpp"

#include COHORT_BACKEND_HEADER(numeric_limits.hpp)

namespace cohort {

template <class T>
struct plus {
  COHORT_HD constexpr T operator()(T a, T b) const { return a + b; }
};
// The smaller of two values, by operator< (the first where they are equal).
template <class T>
struct less {
  COHORT_HD constexpr T operator()(T a, T b) const { return b < a ? b : a; }
};
// The larger of two values, by operator< (the first where they are equal).
template <class T>
struct greater {
  COHORT_HD constexpr T operator()(T a, T b) const { return a < b ? b : a; }
};
template <class T>
struct bit_and {
  COHORT_HD constexpr T operator()(T a, T b) const { return a & b; }
};
template <class T>
struct bit_or {
  COHORT_HD constexpr T operator()(T a, T b) const { return a | b; }
};
template <class T>
struct bit_xor {
  COHORT_HD constexpr T operator()(T a, T b) const { return a ^ b; }
};

namespace detail {

template <class T>
using limits = impl::limits<T>;

// The identity element of `Op` over T, where it has one: what an exclusive
// scan gives rank 0 (docs/collectives.md). plus, bit_or and bit_xor: 0; bit_and:
// all bits set; less: +infinity or the largest value; greater: -infinity or the
// lowest. Any other operator, or a type these don't know: T{} (value-initialized),
// which is also what NVIDIA's implementation returns for every operator.
template <class Op, class T>
COHORT_HD constexpr T identity_of() {
  if constexpr (std::is_same_v<Op, less<T>> && limits<T>::is_specialized) {
    if constexpr (limits<T>::has_infinity)
      return limits<T>::infinity();
    else
      return limits<T>::max();
  } else if constexpr (std::is_same_v<Op, greater<T>> && limits<T>::is_specialized) {
    if constexpr (limits<T>::has_infinity)
      return -limits<T>::infinity();
    else
      return limits<T>::lowest();
  } else if constexpr (std::is_same_v<Op, bit_and<T>> && std::is_integral_v<T>) {
    return static_cast<T>(~T{});
  } else {
    return T{};
  }
}

}  // namespace detail
}  // namespace cohort
