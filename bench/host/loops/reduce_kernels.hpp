// Launches of the loops engine's benchmark kernels (reduce_kernels.cpp, clang + the loops pass).
#pragma once

namespace loops_bench {

void tree_reduce(const float* in, float* out, unsigned blocks, unsigned block);
// The block reduction with warp shuffles: each warp's sum, then warp 0 alone sums the warps' sums.
void warp_block_reduce(const float* in, float* out, unsigned blocks, unsigned block);
// The cooperative grid-sync reduction of `n` floats into *out, `blocks`
// (at most cooperative_blocks(block)) blocks' partials in `partial`.
void grid_sync_reduce(const float* in, float* partial, float* out, unsigned n, unsigned blocks, unsigned block);
unsigned cooperative_blocks(unsigned block);
// `rounds` grid.sync() per block, cooperative.
void grid_syncs(unsigned rounds, unsigned* out, unsigned blocks, unsigned block);
// The multi-grid reduction of `n` floats into *out over one grid on each of
// devices 0 to `devices` - 1 (grid g sums its n / devices floats, a grid-stride
// loop; its blocks' partials in partial[g * blocks...], its sum in grid_sums[g]
// after a grid barrier; grid 0's block 0 sums the grids' after a multi-grid barrier).
void multi_grid_reduce(const float* in, float* partial, float* grid_sums, float* out, unsigned n, unsigned devices,
                       unsigned blocks, unsigned block);
// `rounds` multi_grid.sync() per block, `blocks` blocks on each of `devices` devices.
void multi_grid_syncs(unsigned rounds, unsigned* out, unsigned devices, unsigned blocks, unsigned block);
// `rounds` rounds of two cluster.sync() around a read of the next block's value
// of the cluster, `blocks` blocks in clusters of `cluster`.
void cluster_exchange(unsigned rounds, float* data, unsigned blocks, unsigned block, unsigned cluster);
void saxpy(unsigned n, float a, const float* x, float* y, unsigned block);
// `rounds` block barriers per block and little else.
void barriers(unsigned rounds, unsigned* out, unsigned blocks, unsigned block);
// `rounds` __shfl_xor_sync per lane, in a butterfly.
void butterfly(unsigned rounds, int* out, unsigned blocks, unsigned block);
// `rounds` of a __reduce_add_sync and a __ballot_sync per lane; `records`: their mask
// read from memory (the fiber engine's records, through the loops engine's exchange)
// instead of a constant (the block's lane arrays).
void warp_votes(unsigned rounds, int* out, unsigned blocks, unsigned block, bool records);
// `rounds` of a thread_block_tile<Tile>'s shfl_xor and shfl_down per thread (Tile 8 or 32), then a tile sync.
void tile_shuffles(unsigned rounds, int* out, unsigned blocks, unsigned block, unsigned tile);
// `rounds` of a thread_block_tile<Tile>'s cg::reduce and cg::inclusive_scan per thread (Tile 8 or 32); `records`:
// their operator holds state (the fiber engine's records, through the loops engine's exchange) instead of
// cohort::plus (the lane arrays).
void tile_folds(unsigned rounds, int* out, unsigned blocks, unsigned block, unsigned tile, bool records);
// `rounds` of a thread_block_tile<Tile>'s ballot, any and all per thread (Tile 8 or 32).
void tile_votes(unsigned rounds, int* out, unsigned blocks, unsigned block, unsigned tile);
// `rounds` of a __match_any_sync and a __match_all_sync per lane; `records`: their mask read from memory (the
// fiber engine's records, through the loops engine's exchange) instead of a constant (the block's lane arrays).
void warp_matches(unsigned rounds, int* out, unsigned blocks, unsigned block, bool records);
// `rounds` of a thread_block_tile<Tile>'s match_any and match_all per thread (Tile 8 or 32).
void tile_matches(unsigned rounds, int* out, unsigned blocks, unsigned block, unsigned tile);

}  // namespace loops_bench
