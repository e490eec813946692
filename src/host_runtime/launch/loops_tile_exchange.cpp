// Shuffles and syncs of a thread_block_tile of 32 or fewer that the loops pass
// lowered to the block's lane arrays (docs/loops-engine.md, "Warp-level
// operations"): every thread of the block stopped at one of them, each
// member's value in lane_in and its argument (source rank and width, delta or
// lane mask) in lane_arg. A tile is `tile` consecutive ranks, the block's last
// one what exists of it; each member's source follows group_ops' rules (a
// source outside the tile leaves the member its own value), as the fiber
// engine's combine applies them to the members' slots.
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "cohort/detail/host/tile_primitives.hpp"
#include "launch/loops_lanes.hpp"

namespace cohort::detail::host {

namespace {

// Member r's source in a tile of n members, by group_ops::shfl, shfl_up, shfl_down and shfl_xor.
unsigned tile_source(tile_kind kind, unsigned r, std::uint64_t arg, unsigned n) {
  switch (kind) {
    case tile_kind::shfl: {
      const unsigned width = static_cast<unsigned>(arg >> 32), wrapped = static_cast<unsigned>(arg) & (width - 1);
      return wrapped < n ? wrapped : r;
    }
    case tile_kind::shfl_up:
      return arg <= r ? r - static_cast<unsigned>(arg) : r;
    case tile_kind::shfl_down:
      return r + arg < n ? r + static_cast<unsigned>(arg) : r;
    case tile_kind::shfl_xor:
      return (r ^ arg) < n ? r ^ static_cast<unsigned>(arg) : r;
    case tile_kind::sync:
    case tile_kind::fold:  // (none of these comes here)
    case tile_kind::vote:
    case tile_kind::match_any:
    case tile_kind::match_all:
      break;
  }
  return r;
}

// Where every member passed the same argument (`uniform`, only lane_arg[0]
// written), a whole tile's sources are computed once a block.
template <std::size_t Size>
void exchange(const loops_block& b, lane_range range, tile_kind kind, unsigned tile, bool uniform) {
  unsigned sources[32];
  if (uniform)
    for (unsigned r = 0; r < tile; ++r) sources[r] = tile_source(kind, r, b.lane_arg[0], tile);
  for (unsigned base = range.first; base < range.end; base += tile) {
    const unsigned n = range.end - base < tile ? range.end - base : tile;
    const std::byte* in = b.lane_in + std::size_t{base} * Size;
    std::byte* out = b.lane_out + std::size_t{base} * Size;
    if (uniform && n == tile) {
      for (unsigned r = 0; r < tile; ++r)
        std::memcpy(out + std::size_t{r} * Size, in + std::size_t{sources[r]} * Size, Size);
      continue;
    }
    for (unsigned r = 0; r < n; ++r) {
      const unsigned source = tile_source(kind, r, b.lane_arg[uniform ? 0 : base + r], n);
      std::memcpy(out + std::size_t{r} * Size, in + std::size_t{source} * Size, Size);
    }
  }
}

}  // namespace

void exchange_tiles(const loops_block& b, lane_range r, unsigned kind, unsigned size, unsigned tile, bool uniform_arg) {
  const auto k = static_cast<tile_kind>(kind);
  switch (k == tile_kind::sync ? 0 : size) {
    case 0:  // a sync: every thread of the range stopped here
      return;
    case 1:
      return exchange<1>(b, r, k, tile, uniform_arg);
    case 2:
      return exchange<2>(b, r, k, tile, uniform_arg);
    case 4:
      return exchange<4>(b, r, k, tile, uniform_arg);
    case 8:
      return exchange<8>(b, r, k, tile, uniform_arg);
    case 16:
      return exchange<16>(b, r, k, tile, uniform_arg);
    case 32:
      return exchange<32>(b, r, k, tile, uniform_arg);
  }
}

}  // namespace cohort::detail::host
