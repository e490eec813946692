// Barrier-free kernels whose block function runs the worker's blocks one
// after another in one call (cohort_loops_next_block): what each block reads
// of its index, and failures in a block after the first that the call ran.
#pragma once

#include <string>
#include <vector>

#include "cohort/detail/host/language/vector_types.hpp"
#include "cohort/host/engine.hpp"

namespace block_sequence_tests {

// Per thread of a grid of `grid` blocks of `block` threads: its block's index
// (x + 100 y + 10000 z) and its global x index, as the kernel read them.
struct indices {
  std::vector<unsigned> block_codes;
  std::vector<unsigned> global_x;
};
indices block_indices(dim3 grid, dim3 block);
cohort::host::engine_choice block_indices_engine();

// Launches a kernel whose thread `thread` of block `failing` makes a
// misaligned atomicAdd (which fails the launch, naming the thread), in a grid
// of `grid` blocks of `block` threads; the launch's error text, or "" where it
// did not fail.
std::string misaligned_atomic_failure(dim3 grid, dim3 block, uint3 failing, uint3 thread);
// The same kernel with no thread failing: every thread's global x index.
std::vector<unsigned> no_misaligned_atomic(dim3 grid, dim3 block);
cohort::host::engine_choice misaligned_atomic_engine();

// Launches a kernel whose thread `thread` of block `failing` fails an assert();
// the launch's error text.
std::string failed_assertion(dim3 grid, dim3 block, uint3 failing, uint3 thread);
cohort::host::engine_choice assertion_engine();

// Launches a kernel whose every thread of block `failing` writes through a
// null pointer; the launch's error text, or "" where it did not fail.
std::string fault(dim3 grid, dim3 block, uint3 failing);
cohort::host::engine_choice fault_engine();

}  // namespace block_sequence_tests
