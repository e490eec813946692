// What the two kinds of warp operation the loops pass lowers to the block's
// lane arrays share (loops_lane_exchange.cpp: shuffles; loops_lane_combine.cpp:
// votes, __reduce_*_sync, __syncwarp and __match_*_sync; loops_tile_exchange.cpp: tiles' shuffles and sync).
#pragma once

#include <cstdint>
#include <source_location>

#include "launch/loops_block.hpp"

namespace cohort::detail::host {

// The ranks an exchange completes: the whole block's, or, where the kernel's
// regions run per warp (collectives in warp-uniform control flow), one warp's.
struct lane_range {
  unsigned first, end;
};

// Every thread of the range called `intrinsic` with the constant `mask`: the
// first lane (of the range's first warp, the widest) outside it fails the
// launch, as the first such thread to call the intrinsic does on fibers. One check a range.
void check_lanes_in_mask(const loops_block& b, lane_range r, unsigned warp, const char* intrinsic, std::uint64_t mask,
                         std::source_location where);

// A vote, reduction, __syncwarp or __match_*_sync (combine_kind,
// warp_intrinsics.hpp): each warp's lanes' values in lane_in (`size` bytes
// apart), its result in every lane's lane_out (a match's, each lane's own
// mask); the mask checked first.
void combine_lanes(const loops_block& b, lane_range r, unsigned warp, unsigned kind, unsigned size, std::uint64_t mask,
                   std::source_location where);

// A thread_block_tile's shuffle or sync (tile_kind, tile_primitives.hpp) of
// tiles of `tile` consecutive ranks (1 to 32; the block's last one partial):
// each member's source by group_ops' rules, its value (`size` bytes) copied
// from lane_in to lane_out; a sync completes by every thread having stopped.
void exchange_tiles(const loops_block& b, lane_range r, unsigned kind, unsigned size, unsigned tile, bool uniform_arg);

}  // namespace cohort::detail::host
