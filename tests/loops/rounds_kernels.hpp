// Kernels whose per-thread loops the pass runs in rounds (iteration k of
// every thread of a row, then k + 1: thread_rounds.hpp), and one it must not.
#pragma once

#include <vector>

#include "cohort/detail/host/language/vector_types.hpp"
#include "cohort/host/engine.hpp"

namespace rounds_tests {

// Every launch below reads `in` (n floats) with a grid-stride loop over a grid
// of `grid` blocks of `block` threads and returns, per thread, what it wrote:
// threads whose first index is past n make no iteration, the others
// ceil((n - first) / stride).

// Barrier-free: each thread adds 2 * in[i] + 1 into out[i] for its indices i; returns out (n elements).
std::vector<float> scaled_grid_stride(const std::vector<float>& in, dim3 grid, dim3 block);
cohort::host::engine_choice scaled_grid_stride_engine();

// reductionMultiBlockCG's shape: each thread's sum of its indices in shared
// memory, a barrier, each thread's sum written out and thread 0's block sum
// after a second barrier; threads of rank >= `active` return before the loop.
// Returns per thread its sum, then per block its sum.
std::vector<float> block_sums(const std::vector<float>& in, dim3 grid, dim3 block, unsigned active);
cohort::host::engine_choice block_sums_engine();

// The same loop ended early: a thread stops at the first negative element it reads.
std::vector<float> sums_to_first_negative(const std::vector<float>& in, dim3 grid, dim3 block);
cohort::host::engine_choice sums_to_first_negative_engine();

// An atomicAdd in the loop (into one of 8 counters): not run in rounds. Returns the counters.
std::vector<int> atomic_histogram(const std::vector<int>& in, dim3 grid, dim3 block);
cohort::host::engine_choice atomic_histogram_engine();

}  // namespace rounds_tests
