// A value that may be absent, and an operator lifted over it: what lets the
// whole-array algorithms fold in index order with any associative operator,
// which need not have an identity element. A thread, warp or block that owns
// no element contributes "absent", which every fold passes over.
#pragma once

#include <type_traits>

#include "cohort/backend.hpp"

namespace cohort::detail {

template <class T>
struct partial {
  T value;
  bool present;
};

template <class T>
COHORT_HD constexpr partial<T> absent() {
  return {T{}, false};
}

// a then b, in that order; an absent side leaves the other unchanged.
template <class Op>
struct lifted {
  Op op;
  template <class T>
  COHORT_HD constexpr partial<T> operator()(partial<T> a, partial<T> b) const {
    if (!a.present) return b;
    if (!b.present) return a;
    return {op(a.value, b.value), true};
  }
};

// Element types of the whole-array algorithms: a partial<T> moves through
// warp shuffles and the grid collectives, which take at most 32 bytes.
template <class T>
inline constexpr bool array_element = std::is_trivially_copyable_v<T> && sizeof(partial<T>) <= 32;

}  // namespace cohort::detail
