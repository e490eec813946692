// The loops engine's tests of __match_any_sync, __match_all_sync and tiles'
// match_any and match_all (match_kernels.cpp, built by clang with the loops
// pass): with a constant mask, and on tiles of 32 or fewer, values of up to
// 16 bytes run on the block's lane arrays; wider ones through the records.
// Each launcher returns its kernel's outputs, a fixed count per thread.
#pragma once

#include <vector>

#include "cohort/host/engine.hpp"

namespace match_tests {

using cohort::host::engine_choice;

// The values matched: signed char, short, int, float (0 as -0.0f and +0.0f),
// long long, double, and structs of 3, 12, 16 and 24 bytes (the last through
// the records), each made from a thread's int.
enum class value_type { i8, i16, i32, f32, i64, f64, bytes3, bytes12, bytes16, bytes24 };
inline constexpr value_type value_types[] = {
    value_type::i8,  value_type::i16,    value_type::i32,     value_type::f32,     value_type::i64,
    value_type::f64, value_type::bytes3, value_type::bytes12, value_type::bytes16, value_type::bytes24};

// Per thread of a 3-D block (`x`, `y`, `z`), with the mask 0xffffffff, or
// 0xff where `short_mask` (blocks of 8 threads or fewer): __match_any_sync of
// its value's low 2 bits, __match_all_sync of them and its predicate, of the
// block's index and its predicate, and __match_any_sync of its whole value.
inline constexpr unsigned kWarpMatches = 6;
std::vector<unsigned long long> warp_matches(value_type type, const std::vector<int>& in, unsigned x, unsigned y,
                                             unsigned z, unsigned blocks, bool short_mask = false);
engine_choice warp_matches_engine(value_type type, bool short_mask = false);

// Per thread, on a thread_block_tile<Size> (1 to 64) of a 1-D block: match_any
// of its value's low 2 bits, match_all of them and its predicate, match_all of
// the block's index and its predicate.
inline constexpr unsigned kTileMatches = 5;
std::vector<unsigned long long> tile_matches(value_type type, unsigned size, const std::vector<int>& in,
                                             unsigned threads, unsigned blocks);
engine_choice tile_matches_engine(value_type type, unsigned size);

// The same matches in warp-uniform control flow (`threadIdx.x >= 32`; the
// other threads write 0): __match_any_sync, __match_all_sync and a
// thread_block_tile<16>'s match_any of the low 2 bits of an int.
inline constexpr unsigned kLaterWarpMatches = 3;
std::vector<unsigned long long> later_warp_matches(const std::vector<int>& in, unsigned threads, unsigned blocks);
engine_choice later_warp_matches_engine();

// Misuse: every lane calls __match_any_sync (or __match_all_sync) with the
// mask 0x0000ffff, in a block of 64; `later_warps`: only under
// `threadIdx.x >= 32`, so the lane outside the mask is thread 48.
void match_outside_mask(bool all, bool later_warps);
engine_choice match_outside_mask_engine(bool all, bool later_warps);

// __match_any_sync with the mask 0xffffffff in a block of 64: on warps of 64
// lanes, lane 32 is outside it.
void match_narrow_mask_on_wide_warps();

}  // namespace match_tests
