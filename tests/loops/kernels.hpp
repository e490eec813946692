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
// A histogram of in[i] & 15 (16 bins), the largest value, then the values divisible by 3, sorted: each
// by atomics in grid-stride loops (3 blocks of 64 threads).
std::vector<int> atomics_in_loops(const std::vector<int>& in);
engine_choice atomics_in_loops_engine();
// out[i] = in[i] (through frexpf, ldexpf and a malloc'ed cell) + the exponent of the mirrored thread's value.
std::vector<float> library_calls(const std::vector<float>& in, unsigned block);
engine_choice library_calls_engine();
// Each thread passes the same barrier a different number of times (tid % 3).
std::vector<int> uneven_barriers(unsigned threads);
engine_choice uneven_barriers_engine();
// out[k] = 1000 * ((base + k < limit) + 2 * (k - 7 > lower)) + ((base + k) & 0xff), k = 0 .. blocks * block - 1.
std::vector<unsigned> row_conditions(unsigned base, unsigned limit, int lower, unsigned blocks, unsigned block);
engine_choice row_conditions_engine();
// After a barrier, out[t] = 7 unless (mode 0) base + threadIdx.x < bound: 3 * (n - 1 - t); (mode 1)
// bound >= base + threadIdx.x: 3 * ((t + 1) % n); (mode 2) threadIdx.x - 5 <= signed_bound: 3 * t + 1.
std::vector<unsigned> prefix_tests(unsigned mode, unsigned base, unsigned bound, int signed_bound, unsigned x,
                                   unsigned y, unsigned blocks);
engine_choice prefix_tests_engine();
// Barriers only in block-uniform control flow (which of two barriers a parameter
// chooses, a loop of `rounds`), uniform and per-thread values live across them.
std::vector<int> uniform_rounds(const std::vector<int>& in, unsigned x, unsigned y, unsigned rounds, bool reverse);
engine_choice uniform_rounds_engine();
// Odd and even threads wait at different barrier calls: a launch error on both engines.
void mismatched_barriers(unsigned threads);
// The same with the two barrier calls kept apart (one in a loop), each passing its own constant site.
void mismatched_barrier_loop(unsigned threads);
engine_choice mismatched_barriers_engine();

// A parameter of 28 bytes (passed in memory, byval) and dynamic shared memory.
struct scales {
  float factor[6];
  unsigned n;
};
std::vector<float> scaled_reverse(const scales& s, const std::vector<float>& in, unsigned block);
engine_choice scaled_reverse_engine();
// The same, each thread changing its copy of the parameter before the barrier and reading it after.
std::vector<float> changed_parameter(const scales& s, const std::vector<float>& in, unsigned block);
engine_choice changed_parameter_engine();
// A kernel template, instantiated for int and double.
std::vector<int> neighbour_sum(const std::vector<int>& in, unsigned block);
std::vector<double> neighbour_sum(const std::vector<double>& in, unsigned block);
engine_choice neighbour_sum_engine();  // the int instance
// A 2-D grid of 2-D blocks.
std::vector<int> transpose_tiles(const std::vector<int>& in, unsigned width, unsigned height);
engine_choice transpose_tiles_engine();
// C = A x B (n x k times k x m) by 8 x 8 tiles through shared memory: two
// barriers in a loop over the tiles, the running sum live across both.
std::vector<float> tiled_matmul(const std::vector<float>& a, const std::vector<float>& b, unsigned n, unsigned k,
                                unsigned m);
engine_choice tiled_matmul_engine();
// A helper that is not inlined reads threadIdx before and after a barrier.
std::vector<float> not_inlined_reader(const std::vector<float>& in, unsigned block);
engine_choice not_inlined_reader_engine();
// A cooperative launch of a kernel without grid barriers.
std::vector<float> saxpy_cooperative(float a, const std::vector<float>& x, const std::vector<float>& y, unsigned block);

// shared_kernel.hpp's template, instantiated here (-O2) and in kernels_unoptimized.cpp (-O0).
std::vector<int> shared_reverse(const std::vector<int>& in, unsigned block);
std::vector<int> shared_reverse_unoptimized(const std::vector<int>& in, unsigned block);
engine_choice shared_reverse_engine();

// Stay on fibers, each for its reason.
std::vector<float> barrier_in_helper(const std::vector<float>& in);  // a barrier in a function not inlined
engine_choice barrier_in_helper_engine();
// A parameter with a copy constructor: passed by address, one copy per thread on fibers.
struct counted {
  int value;
  counted(int v) : value(v) {}
  counted(const counted& other) : value(other.value) {}
};
std::vector<int> by_address(counted c, unsigned threads);
engine_choice by_address_engine();
std::vector<int> grid_sum(const std::vector<int>& in, unsigned blocks, unsigned block);  // cooperative, grid.sync()
engine_choice grid_sum_engine();
std::vector<float> calls_elsewhere(const std::vector<float>& in);  // calls external_scale (the test's own file)
engine_choice calls_elsewhere_engine();
std::vector<float> indirect_call(const std::vector<float>& in);
engine_choice indirect_call_engine();
int atomic_count(unsigned threads);
engine_choice atomic_count_engine();
// One atomicAdd per block of its shared-memory sum, after a barrier: lowered.
int block_sums_atomic(const std::vector<int>& in, unsigned block);
engine_choice block_sums_atomic_engine();
// A histogram: atomicAdd in a grid-stride loop, lowered (the loop ends by its counter).
std::vector<int> histogram(const std::vector<int>& in, unsigned bins);
engine_choice histogram_engine();
// A spin on a flag with a fence in the loop, and no atomic read: kept on fibers.
std::vector<int> fenced_spin(unsigned threads);
engine_choice fenced_spin_engine();
// Two entries into one cycle (a goto into a loop's body).
std::vector<int> irreducible(const std::vector<int>& in);
engine_choice irreducible_engine();
std::vector<float> catches(const std::vector<float>& in);
engine_choice catches_engine();

}  // namespace loops_tests

// Defined by the test driver, compiled by g++: a call the pass cannot see into.
void external_scale(float* value);
