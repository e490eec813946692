// The loops engine's test kernels (kernels.cpp, built by clang with the loops
// pass): each launched by a function that takes host vectors and returns the
// kernel's output, and queried for the engine a launch takes.
#pragma once

#include <cstddef>
#include <vector>

#include "cohort/host/engine.hpp"

namespace loops_tests {

using cohort::host::engine_choice;

// Lowered: barrier-free, barriers at top level, in loops, after early exits, 3-D blocks.
std::vector<float> saxpy(float a, const std::vector<float>& x, const std::vector<float>& y, unsigned block);
engine_choice saxpy_engine();
// One sum per block, by the shared-memory tree (`if (tid < s)`, a barrier per level).
std::vector<float> tree_reduce(const std::vector<float>& in, unsigned block);
engine_choice tree_reduce_engine();
// out[i] = in[i-1] + in[i] + in[i+1] through a shared tile with halos.
std::vector<float> stencil(const std::vector<float>& in, unsigned block);
engine_choice stencil_engine();
// Threads past n return before the barrier; the others sum with their neighbour after it.
std::vector<float> early_exit(const std::vector<float>& in, unsigned block);
engine_choice early_exit_engine();
// A 3-D block (odd extents) reversing its values through shared memory.
std::vector<int> reverse_3d(const std::vector<int>& in, unsigned x, unsigned y, unsigned z);
engine_choice reverse_3d_engine();
// A thread-local array indexed at run time, live across a barrier.
std::vector<float> local_array(const std::vector<float>& in, unsigned block);
engine_choice local_array_engine();
// Each thread passes the same barrier a different number of times (tid % 3).
std::vector<int> uneven_barriers(unsigned threads);
engine_choice uneven_barriers_engine();
// Odd and even threads wait at different barrier calls: a launch error on both engines.
void mismatched_barriers(unsigned threads);
engine_choice mismatched_barriers_engine();

// Stay on fibers, each for its reason.
std::vector<float> warp_shuffle(const std::vector<float>& in);
engine_choice warp_shuffle_engine();
std::vector<int> grid_sum(const std::vector<int>& in, unsigned blocks, unsigned block);  // cooperative, grid.sync()
engine_choice grid_sum_engine();
std::vector<float> calls_elsewhere(const std::vector<float>& in);  // calls external_scale (the test's own file)
engine_choice calls_elsewhere_engine();
std::vector<float> indirect_call(const std::vector<float>& in);
engine_choice indirect_call_engine();
int atomic_count(unsigned threads);
engine_choice atomic_count_engine();
std::vector<float> catches(const std::vector<float>& in);
engine_choice catches_engine();

}  // namespace loops_tests

// Defined by the test driver, compiled by g++: a call the pass cannot see into.
void external_scale(float* value);
