// The whole-array grid algorithms written on the grid collectives alone, for
// any operator and type: each thread owns one run of consecutive elements
// (grid rank order), folds it, and the grid's rank-ordered reduce or
// exclusive scan of the runs' totals joins them. Every fold is in index
// order, so the operator need only be associative. The host backend runs
// these; the CUDA backend has coalesced versions (detail/cuda/array_*.hpp).
#pragma once

#include <cstddef>

#include "cohort/backend.hpp"
#include "cohort/collectives/reduce.hpp"
#include "cohort/collectives/scan.hpp"
#include "cohort/detail/partial_value.hpp"
#include "cohort/groups/groups.hpp"

namespace cohort::detail {

struct element_run {
  std::size_t begin, end;
};

// The calling thread's run of [0, n): n split as evenly as the grid allows.
template <class Grid>
COHORT_DEVICE element_run run_of_thread(const Grid& grid, std::size_t n) {
  const std::size_t threads = grid.num_threads(), rank = grid.thread_rank();
  const std::size_t base = n / threads, extra = n % threads;
  const std::size_t begin = rank * base + (rank < extra ? rank : extra);
  return {begin, begin + base + (rank < extra ? 1 : 0)};
}

template <class T, class Op>
COHORT_DEVICE partial<T> fold_run(const T* in, element_run run, Op op) {
  if (run.begin == run.end) return absent<T>();
  T total = in[run.begin];
  for (std::size_t i = run.begin + 1; i < run.end; ++i) total = op(total, in[i]);
  return {total, true};
}

// The fold of the whole array in every thread; absent when n == 0.
template <class Grid, class T, class Op>
COHORT_DEVICE partial<T> chunked_reduce(const Grid& grid, const T* in, std::size_t n, Op op) {
  return cohort::reduce(grid, fold_run(in, run_of_thread(grid, n), op), lifted<Op>{op});
}

// A whole-array fold's total stored to *out by the grid's rank 0; the
// operator's identity for an empty array.
template <class Grid, class T, class Op>
COHORT_DEVICE void store_from_grid_leader(const Grid& grid, const partial<T>& total, T* out, const Op&) {
  if (grid.thread_rank() == 0) *out = total.present ? total.value : identity_of<Op, T>();
}

// out[i] = [init op] in[0] op ... op in[i] (inclusive) or [init op] in[0] op ...
// op in[i - 1] (exclusive, which always has init). Each run's total is read
// before the grid's scan, which every thread leaves only after all have
// entered it, so out may be in.
template <bool Inclusive, class Grid, class T, class Op>
COHORT_DEVICE void chunked_scan(const Grid& grid, const T* in, T* out, std::size_t n, partial<T> init, Op op) {
  const element_run run = run_of_thread(grid, n);
  const lifted<Op> lift{op};
  partial<T> running = lift(init, cohort::exclusive_scan(grid, fold_run(in, run, op), lift));
  for (std::size_t i = run.begin; i < run.end; ++i) {
    const partial<T> x{in[i], true};
    if constexpr (Inclusive) {
      running = lift(running, x);
      out[i] = running.value;
    } else {
      out[i] = running.value;
      running = lift(running, x);
    }
  }
}

}  // namespace cohort::detail
