// Kernels with grid barriers for the loops engine's tests (grid_test.cpp):
// built by clang with the loops pass, where each grid.sync() is a point at
// which the block function returns to the scheduler (docs/loops-engine.md).
#pragma once

#include <vector>

#include "cohort/host/engine.hpp"

namespace loops_tests {

using cohort::host::engine_choice;

// Rounds of grid.sync() in a loop, each thread reading another block's value
// of the round; a per-thread value, a uniform counter, static and dynamic
// shared memory kept across every grid barrier, block barriers between them.
// Cooperative, `blocks` blocks of `block` threads.
std::vector<float> grid_rounds(const std::vector<float>& in, unsigned blocks, unsigned block, unsigned rounds);
engine_choice grid_rounds_engine();
// The same in clusters of `cluster` blocks: a cluster launch of grid barriers stays on fibers.
std::vector<float> grid_rounds_in_clusters(const std::vector<float>& in, unsigned blocks, unsigned block,
                                           unsigned rounds, unsigned cluster);

// Two grid barriers at two call sites: a block's sum, the grid's total,
// then every thread scaling its element by the total.
std::vector<int> grid_normalize(const std::vector<int>& in, unsigned blocks, unsigned block);
engine_choice grid_normalize_engine();

// Each block's own uniform value (a recurrence seeded by blockIdx.x) kept
// across `rounds` grid barriers, each followed by a block barrier in a region
// that reads the value without redefining it; out[(block * rounds + round) *
// block size + thread] = (value + threadIdx.x) ^ value.
std::vector<unsigned> grid_block_values(unsigned blocks, unsigned block, unsigned rounds);
engine_choice grid_block_values_engine();

// Block `leaver` returns before the grid barrier the others wait at.
void grid_barrier_left(unsigned blocks, unsigned block, unsigned leaver);
// grid.sync() in a launch that is not cooperative.
void grid_barrier_not_cooperative(unsigned blocks, unsigned block);

// A grid collective (cg::reduce over the grid): stays on fibers.
std::vector<int> grid_reduce(unsigned blocks, unsigned block);
engine_choice grid_reduce_engine();

// A grid barrier and a shuffle in warp-uniform control flow (each block's
// first warp): stays on fibers. out[i] = thread i + blockDim.x's rank % 5 (mod
// the grid's threads), summed over the 32 lanes in each block's first warp.
std::vector<int> grid_warp_sums(unsigned blocks, unsigned block);
engine_choice grid_warp_sums_engine();

// The line of grid_kernels.cpp each diagnostic names.
extern const unsigned left_barrier_line, not_cooperative_line;

}  // namespace loops_tests
