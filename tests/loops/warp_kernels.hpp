// The loops engine's warp-level test kernels (warp_kernels.cpp, built by clang
// with the loops pass): warp intrinsics and tile collectives, each launched
// by a function that takes host vectors and a block shape and returns the
// kernel's output, and queried for the engine a launch takes.
#pragma once

#include <vector>

#include "cohort/host/engine.hpp"

namespace warp_tests {

using cohort::host::engine_choice;

// A block of x * y * z threads (the last warp partial where that is not a multiple of 32).
struct block_shape {
  unsigned x, y = 1, z = 1;
  unsigned threads() const { return x * y * z; }
};

// Each lane's value summed over its warp by a __shfl_xor_sync butterfly (5 rounds).
std::vector<float> butterfly(const std::vector<float>& in, block_shape block, unsigned blocks);
engine_choice butterfly_engine();
// Per thread: __shfl_sync from lane (7 * lane + src) % 32, then __shfl_up_sync,
// __shfl_down_sync and __shfl_xor_sync by `delta` within segments of `width`.
std::vector<int> shuffles(const std::vector<int>& in, int src, unsigned delta, int width, block_shape block,
                          unsigned blocks);
engine_choice shuffles_engine();
// Shuffles the pass lowers to the lane arrays (constant masks): each kind of a
// value of each size, every lane with its own operand (in: value, operand per
// thread), out: each result flattened to an integer, 4 per thread. `quad`, of
// 16 bytes in two registers, keeps the checked path.
enum class shuffled_type { i8, i16, i32, f32, f64, i64, pair, quad };
std::vector<long long> typed_shuffles(shuffled_type type, const std::vector<int>& in, int width, block_shape block,
                                      unsigned blocks);
engine_choice typed_shuffles_engine();  // the 8-byte pair's
// `rounds` rounds of a double's __shfl_xor_sync and an int's __shfl_down_sync (out: both, per thread).
std::vector<long long> looped_shuffles(const std::vector<int>& in, int rounds, block_shape block, unsigned blocks);
engine_choice looped_shuffles_engine();
// Blocks of 8 threads shuffling with the mask 0xff, which names every lane they have.
std::vector<int> short_warp(const std::vector<int>& in, unsigned blocks);
engine_choice short_warp_engine();
// Per thread: __ballot_sync, __any_sync, __all_sync, __reduce_add_sync, __reduce_max_sync, __match_any_sync.
std::vector<int> votes(const std::vector<int>& in, block_shape block, unsigned blocks);
engine_choice votes_engine();
// Per thread, on the lane arrays (constant masks): every __reduce_*_sync (add of int and
// unsigned, min and max signed and unsigned, and, or, xor) and the votes of three predicates.
std::vector<int> reductions(const std::vector<int>& in, block_shape block, unsigned blocks);
engine_choice reductions_engine();
// Neighbours' values through shared memory, ordered by __syncwarp (twice).
std::vector<int> syncwarp_exchange(const std::vector<int>& in, block_shape block, unsigned blocks);
engine_choice syncwarp_exchange_engine();
// Half-warp masks (0x0000ffff and 0xffff0000): two groups per warp, a shuffle within each.
std::vector<int> half_warps(const std::vector<int>& in, block_shape block, unsigned blocks);
engine_choice half_warps_engine();
// thread_block_tile<Size> (Size 1 to 32, and 64 and 256, wider than a warp): cg::reduce, sync,
// shfl_down, shfl_xor, shfl, ballot (any and all for 256), inclusive_scan.
std::vector<int> tiles(unsigned size, const std::vector<int>& in, block_shape block, unsigned blocks);
engine_choice tiles_engine(unsigned size);
// thread_block_tile<Size> (Size 1 to 32, on the lane arrays): shfl, shfl_up, shfl_down and
// shfl_xor, each member with its own operand, up to past the tile's end.
std::vector<int> tile_operands(unsigned size, const std::vector<int>& in, block_shape block, unsigned blocks);
engine_choice tile_operands_engine(unsigned size);
// A block's sum: a warp reduction, a barrier, then every warp reduces the warps' sums again.
std::vector<float> block_sum(const std::vector<float>& in, unsigned block, unsigned blocks);
engine_choice block_sum_engine();

// Misuse, an error on both engines (one warp of 32; non_uniform_delta: two).
void lane_outside_mask();       // __shfl_sync(0x0000ffff) called by every lane
void masks_differ();            // lane 1 calls __syncwarp(0x2), the others __syncwarp(0xffffffff)
void shuffle_source_outside();  // lanes 0-15 (mask 0x0000ffff) read lane 20
void non_uniform_delta();       // a tile of 64's shfl_down by 1 in even lanes and 2 in odd ones
engine_choice misuse_engine();  // lane_outside_mask's
// Every lane calls a vote, a reduction or __syncwarp with the mask 0x0000ffff (on the lane arrays).
enum class masked_call { ballot, any, all, reduce_add, reduce_min, syncwarp };
void combine_outside_mask(masked_call call);
engine_choice combine_outside_mask_engine(masked_call call);

// Stay on fibers: a shuffle only the first half of each warp calls (warp-uniform
// control flow, a shuffle only whole warps call, runs on loops: warp_uniform_kernels.hpp).
std::vector<float> divergent_shuffle(const std::vector<float>& in, unsigned block);
engine_choice divergent_shuffle_engine();
// coalesced_threads() in a branch on the lane.
std::vector<int> coalesced_odd_lanes(unsigned block);
engine_choice coalesced_odd_lanes_engine();

}  // namespace warp_tests
