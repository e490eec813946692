// Kernels with multi-grid barriers for the loops engine's tests
// (multi_grid_test.cpp): built by clang with the loops pass, where each
// multi_grid.sync() is a point at which the block function returns to the
// scheduler, and the grids of a multi-device launch run in one set of phases
// (docs/loops-engine.md, "Multi-grid barriers"). Each launch has one grid on
// each of the first `devices` virtual devices (COHORT_DEVICE_COUNT at least that).
#pragma once

#include <vector>

#include "cohort/host/engine.hpp"
#include "cohort/launch/launch_config.hpp"

namespace loops_tests {

using cohort::host::engine_choice;

// Rounds of a reduction over every grid: each block's sum, a grid barrier,
// each grid's sum by its block 0, a multi-grid barrier, every thread reading
// every grid's sum (the launch's total) into its value, a multi-grid barrier
// before the next round writes. `in` has devices * blocks * block values, grid
// g's from g * blocks * block; out[i] = thread i's value after the rounds:
// v = v * 3 + total % 1000 + threadIdx.x, in unsigned arithmetic, each round.
std::vector<unsigned> multi_grid_reduce(const std::vector<unsigned>& in, unsigned devices, unsigned blocks,
                                        unsigned block, unsigned rounds);
engine_choice multi_grid_reduce_engine();

// Block `leaver` of grid `leaving_grid` returns between two multi-grid barriers the others reach.
void multi_grid_barrier_left(unsigned devices, unsigned blocks, unsigned block, unsigned leaving_grid, unsigned leaver);
// Block `leaver` of grid 0 returns before a grid barrier its grid's others reach (no multi-grid barrier first).
void multi_grid_grid_barrier_left(unsigned devices, unsigned blocks, unsigned block, unsigned leaver);
// Block 0 of each grid waits at a grid barrier, the others at a multi-grid barrier.
void multi_grid_levels_crossed(unsigned devices, unsigned blocks, unsigned block);
// The multi-grid kernel in a cooperative launch of one grid, and in a launch that is not cooperative.
void multi_grid_barrier_cooperative(unsigned blocks, unsigned block);
void multi_grid_barrier_not_cooperative(unsigned blocks, unsigned block);

// The reduction's kernel in a multi-device launch with clusters of `cluster` blocks: stays on fibers.
std::vector<unsigned> multi_grid_reduce_in_clusters(const std::vector<unsigned>& in, unsigned devices, unsigned blocks,
                                                    unsigned block, unsigned rounds, unsigned cluster);
// out[multi_grid_group::thread_rank()] = 3 * that rank + multi_grid_group::num_threads(), blocks of
// `block` threads in x and y.
std::vector<unsigned long long> multi_grid_thread_ranks(unsigned devices, unsigned blocks, dim3 block);
engine_choice multi_grid_thread_ranks_engine();
// out[thread_rank()] = cg::reduce over the multi-grid of 1 (a multi-grid collective): stays on fibers.
std::vector<int> multi_grid_count(unsigned devices, unsigned blocks, unsigned block);
engine_choice multi_grid_count_engine();

// The line of multi_grid_kernels.cpp each diagnostic names.
extern const unsigned multi_grid_left_line, multi_grid_grid_left_line, multi_grid_crossed_grid_line,
    multi_grid_crossed_line, multi_grid_cooperative_line;

}  // namespace loops_tests
