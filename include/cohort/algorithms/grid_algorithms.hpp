// Whole-array algorithms run by the grid of a cooperative kernel (beyond
// NVIDIA's cooperative groups, which have none; docs/algorithms.md). Every
// thread of the grid calls them with the same arguments; the grid loads the
// array itself. Results are exact in index order for any associative
// operator (it need not be commutative or have an identity); cohort's own
// commutative operators (plus, less, greater, bit_*) on arithmetic types may
// combine floating-point elements in another order, as any parallel sum does.
#pragma once

#include <cstddef>

#include "cohort/backend.hpp"
#include "cohort/collectives/functional.hpp"
#include "cohort/detail/partial_value.hpp"
#include "cohort/groups/groups.hpp"

#include COHORT_BACKEND_HEADER(grid_array.hpp)

namespace cohort {

// in[0] op ... op in[n - 1], returned to every thread; when n == 0, the
// operator's identity (detail::identity_of: T{} for an operator cohort does not know).
template <class T, class Op>
COHORT_DEVICE T grid_reduce(const grid_group& grid, const T* in, std::size_t n, Op op) {
  static_assert(detail::array_element<T>, "grid algorithms take trivially copyable element types of at most 24 bytes");
  const detail::partial<T> total = detail::grid_array_reduce(grid, in, n, op);
  return total.present ? total.value : detail::identity_of<Op, T>();
}

// The same fold, stored to *out by one thread (grid rank 0). Other threads
// see it after a later grid.sync() or in a later launch.
template <class T, class Op>
COHORT_DEVICE void grid_reduce(const grid_group& grid, const T* in, std::size_t n, T* out, Op op) {
  static_assert(detail::array_element<T>, "grid algorithms take trivially copyable element types of at most 24 bytes");
  detail::grid_array_reduce_into(grid, in, n, out, op);
}

// out[i] = in[0] op ... op in[i]. out may be in; otherwise the two must not overlap.
template <class T, class Op>
COHORT_DEVICE void grid_inclusive_scan(const grid_group& grid, const T* in, T* out, std::size_t n, Op op) {
  static_assert(detail::array_element<T>, "grid algorithms take trivially copyable element types of at most 24 bytes");
  detail::grid_array_scan<true>(grid, in, out, n, detail::absent<T>(), op);
}

// out[0] = init, out[i] = init op in[0] op ... op in[i - 1]. out may be in.
template <class T, class Op>
COHORT_DEVICE void grid_exclusive_scan(const grid_group& grid, const T* in, T* out, std::size_t n, T init, Op op) {
  static_assert(detail::array_element<T>, "grid algorithms take trivially copyable element types of at most 24 bytes");
  detail::grid_array_scan<false>(grid, in, out, n, detail::partial<T>{init, true}, op);
}

}  // namespace cohort
