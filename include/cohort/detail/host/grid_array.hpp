// The host backend's whole-array grid algorithms inside a cooperative kernel
// (cohort/algorithms/grid_algorithms.hpp): each thread's run of consecutive
// elements, joined by the grid collectives (detail/grid_chunks.hpp).
#pragma once

#include <cstddef>

#include "cohort/detail/grid_chunks.hpp"
#include "cohort/detail/partial_value.hpp"
#include "cohort/groups/groups.hpp"

namespace cohort::detail {

template <class T, class Op>
partial<T> grid_array_reduce(const grid_group& grid, const T* in, std::size_t n, Op op) {
  if (n == 0) return absent<T>();
  return chunked_reduce(grid, in, n, op);
}

template <class T, class Op>
void grid_array_reduce_into(const grid_group& grid, const T* in, std::size_t n, T* out, Op op) {
  store_from_grid_leader(grid, grid_array_reduce(grid, in, n, op), out, op);
}

template <bool Inclusive, class T, class Op>
void grid_array_scan(const grid_group& grid, const T* in, T* out, std::size_t n, partial<T> init, Op op) {
  if (n == 0) return;
  chunked_scan<Inclusive>(grid, in, out, n, init, op);
}

}  // namespace cohort::detail
