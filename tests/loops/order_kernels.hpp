// Kernels that record the order a block's threads ran in (order_kernels.cpp,
// built by clang with the loops pass), for the shuffled schedule's tests.
#pragma once

#include <vector>

#include "cohort/host/engine.hpp"

namespace order_tests {

using cohort::host::engine_choice;

// Per block, the ranks of its threads in the order they took a ticket
// (atomicAdd on the block's counter): without a barrier; after a barrier in
// block-uniform control flow; after one that every third thread skips by
// returning early (a barrier in thread-dependent control flow), those
// threads' entries left at 0xffffffff.
enum class shape { barrier_free, uniform_barrier, divergent_barrier };
std::vector<unsigned> arrival_order(shape kind, unsigned blocks, unsigned x, unsigned y);
engine_choice arrival_order_engine(shape kind);

}  // namespace order_tests
