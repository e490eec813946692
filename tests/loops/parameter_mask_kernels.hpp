// The loops engine's tests of warp operations whose mask is a kernel parameter
// (parameter_mask_kernels.cpp, built by clang with the loops pass): the same
// for every thread of the launch, so on the block's lane arrays with one check
// a block, as a constant mask is.
#pragma once

#include <vector>

#include "cohort/host/engine.hpp"

namespace parameter_mask_tests {

using cohort::host::engine_choice;

// The parameter's type: unsigned (zero-extended), int (sign-extended: -1 names
// every lane of any warp) or unsigned long long.
enum class mask_type { u32, i32, u64 };

// Per thread of a 1-D block, with the mask `mask` (converted to the type):
// __shfl_xor_sync (lane mask 1), __shfl_down_sync (delta 3, width 16), __ballot_sync,
// __any_sync, __all_sync, __reduce_add_sync, __match_any_sync,
// __match_all_sync and its predicate; then __syncwarp.
inline constexpr unsigned kOperations = 9;
std::vector<unsigned long long> operations(mask_type type, unsigned long long mask, const std::vector<int>& in,
                                           unsigned threads, unsigned blocks);
engine_choice operations_engine(mask_type type);

// The same under `threadIdx.x >= 32` (the other threads write 0): regions per warp.
std::vector<unsigned long long> later_warps(unsigned mask, const std::vector<int>& in, unsigned threads,
                                            unsigned blocks);
engine_choice later_warps_engine();

}  // namespace parameter_mask_tests
