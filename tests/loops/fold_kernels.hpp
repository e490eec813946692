// The loops engine's tests of tiles' cg::reduce, scans and votes
// (fold_kernels.cpp, built by clang with the loops pass): on tiles of 1 to 32
// (with a stateless operator) they run on the block's lane arrays; with an
// operator that holds state, and on tiles of 64, through the records. Each
// launcher returns the kernel's output, kFolds (kVotes) values per thread.
#pragma once

#include <vector>

#include "cohort/host/engine.hpp"

namespace fold_tests {

using cohort::host::engine_choice;

// Per thread, on a thread_block_tile<Size> of a 1-D block of `threads`: reduce,
// inclusive_scan and exclusive_scan with plus, less, greater, a non-commutative
// operator (a - b) and, for integers, bit_and, bit_or and bit_xor; reduce and
// both scans once more with plus held by a stateful operator (the records).
inline constexpr unsigned kFolds = 21;
enum class value_type { i32, u32, i64, f32, f64 };
// `in` holds each thread's value as a double, converted to the type.
std::vector<double> folds(value_type type, unsigned size, const std::vector<double>& in, unsigned threads,
                          unsigned blocks);
engine_choice folds_engine(value_type type, unsigned size);

// Per thread, on a thread_block_tile<Size> (1 to 64) of a 1-D block: any, all
// and ballot of three predicates of its value (v > 0, v > -900, v > 900).
inline constexpr unsigned kVotes = 9;
std::vector<int> votes(unsigned size, const std::vector<int>& in, unsigned threads, unsigned blocks);
engine_choice votes_engine(unsigned size);

// A value of 3 bytes (three channels, each added modulo 256), whose register
// takes 4: a thread_block_tile<8>'s reduce and inclusive scan through the
// records. Per thread: the reduce's channels, then the scan's.
std::vector<int> three_bytes(const std::vector<int>& in, unsigned threads, unsigned blocks);

// A thread_block_tile<32>'s reduce and inclusive scan in warp-uniform control
// flow (`threadIdx.x < 64`; the other threads write -1): regions per warp.
std::vector<int> first_warps(const std::vector<int>& in, unsigned threads, unsigned blocks);
engine_choice first_warps_engine();

}  // namespace fold_tests
