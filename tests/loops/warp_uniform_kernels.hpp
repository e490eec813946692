// The loops engine's kernels with collectives in warp-uniform control flow
// (warp_uniform_kernels.cpp, built by clang with the loops pass): each launched
// by a function that takes host vectors and a block shape and returns the
// kernel's output, and queried for the engine the pass chose.
#pragma once

#include <vector>

#include "cohort/host/engine.hpp"
#include "warp_kernels.hpp"

namespace warp_uniform_tests {

using cohort::host::engine_choice;
using warp_tests::block_shape;

// The two-level block reduction of NVIDIA's "Faster Parallel Reductions on
// Kepler": each warp's sum by __shfl_down_sync, lane 0 to shared memory, a
// barrier, then `if (wid == 0)` warp 0 sums the warps' sums (out: every
// thread's value at the end, the block's sum at each block's thread 0).
std::vector<float> blog_block_sum(const std::vector<float>& in, block_shape block, unsigned blocks);
engine_choice blog_block_sum_engine();
// A tree reduction in shared memory down to 64 values, then `if (tid < 32)`
// the last warp adds its second half and reduces by __shfl_down_sync, as CUDA
// samples' reduction kernel 6 does (out: each block's sum; 2 inputs a thread).
std::vector<float> final_warp_sum(const std::vector<float>& in, unsigned block, unsigned blocks);
engine_choice final_warp_sum_engine();
// thread_block_tile<32>: every tile reduces by shfl_down; `if (tile.meta_group_rank() == 0)`
// the first tile a butterfly of shfl_xor more, odd tiles a shfl from their lane 3, a
// sync, and a tile.shfl_up (out: per thread). Proven from the rank alone: any block shape.
std::vector<int> tile_leaders(const std::vector<int>& in, block_shape block, unsigned blocks);
engine_choice tile_leaders_engine();
// Per-warp loops: warp w sums rows w, w + warps, ... of a matrix of 32 columns by
// __shfl_xor_sync (out: each row's sum, then each lane's last value).
std::vector<float> per_warp_rows(const std::vector<float>& in, unsigned rows, unsigned block);
engine_choice per_warp_rows_engine();
// Rows of 32 columns by the launch's warps (warp (blockIdx.x * blockDim.x + threadIdx.x) / 32
// takes rows w, w + warps, ...), each summed by __shfl_down_sync (out: lane 0's sum per row).
// Proven where blockDim.x is a multiple of 32.
std::vector<float> launch_warp_rows(const std::vector<float>& in, unsigned rows, block_shape block, unsigned blocks);
engine_choice launch_warp_rows_engine();
// y = A x for a CSR matrix (row_start of rows + 1 entries), a warp of the launch a row
// ((int)(blockIdx.x * blockDim.x + threadIdx.x) / 32: a signed division), as vector SpMV kernels do.
std::vector<float> csr_vector(const std::vector<int>& row_start, const std::vector<int>& cols,
                              const std::vector<float>& values, const std::vector<float>& x, block_shape block,
                              unsigned blocks);
engine_choice csr_vector_engine();
// A butterfly of __shfl_xor_sync over `width` lanes in a loop the block runs alike (its
// offset kept across each shuffle, per warp), then `if (threadIdx.x / 32 == 1)` a loop
// of __shfl_up_sync (out: per thread).
std::vector<float> uniform_loop_then_second_warp(const std::vector<float>& in, unsigned width, unsigned block,
                                                 unsigned blocks);
engine_choice uniform_loop_then_second_warp_engine();
// Under `threadIdx.x >= 64`: __ballot_sync, __reduce_add_sync, __any_sync, __syncwarp;
// under `(threadIdx.x >> 5) % 2 == 0`, __reduce_max_sync (out: 2 per thread).
std::vector<int> votes_above_two_warps(const std::vector<int>& in, block_shape block, unsigned blocks);
engine_choice votes_above_two_warps_engine();
// Misuse: only the second warp (threadIdx.x in [32, 64)) calls __shfl_sync(0x0000ffff): lane 16 of
// that warp, thread 48, is outside the mask (one block of 64).
void second_warp_outside_mask();
engine_choice second_warp_outside_mask_engine();
// Stays on fibers: `if (threadIdx.x < 32)` around cg::reduce of a tile with an operator that holds state (the records).
std::vector<int> records_in_first_warp(const std::vector<int>& in, unsigned block);
engine_choice records_in_first_warp_engine();

}  // namespace warp_uniform_tests
