// Shuffles the loops pass lowered to the block's lane arrays (docs/loops-engine.md,
// "Warp-level operations"): every thread of the block stopped at one shuffle
// whose mask is a constant, each thread's value in lane_in and its packed
// argument (operand and width) in lane_arg. Here the mask is checked once per
// block, as every lane would check it on fibers, and each lane's result is
// copied from its source lane, by PTX's rules as lane_ops gives them, into
// lane_out, which the region after reads. Votes, reductions, __syncwarp and
// __match_*_sync come here too (loops_lane_combine.cpp), tiles' shuffles and
// sync (loops_tile_exchange.cpp), and tiles' cg::reduce, scans, votes and
// matches, whose function over the arrays the kernel's own header defines
// (collectives/tile_fold.hpp, tile_primitives.hpp).
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <source_location>

#include "cohort/detail/host/collectives/lane_ops.hpp"
#include "cohort/detail/host/collectives/tile_fold.hpp"
#include "cohort/detail/host/language/warp_intrinsics.hpp"
#include "cohort/detail/host/tile_primitives.hpp"
#include "launch/loops_lanes.hpp"

extern "C" void cohort_loops_enter_thread(std::uint32_t x, std::uint32_t y, std::uint32_t z, std::uint32_t row);

namespace cohort::detail::host {

namespace {

constexpr const char* shuffle_names[] = {"__shfl_sync", "__shfl_up_sync", "__shfl_down_sync", "__shfl_xor_sync"};

// Each lane of each warp reads its source lane's value; a source the block
// does not have (a partial last warp) leaves the lane its own, as on fibers.
// Where every lane passed the same operand and width (`uniform`, only
// lane_arg[0] written), a whole warp's sources are computed once.
template <std::size_t Size, class Source>
void exchange(const loops_block& b, lane_range r, unsigned warp, bool uniform, Source source) {
  auto source_of = [&](unsigned lane, std::uint64_t arg, unsigned present) {
    const unsigned operand = static_cast<unsigned>(arg), width = static_cast<unsigned>(arg >> 32);
    const unsigned j = source(lane, operand, width, lane & ~(width - 1));
    return j < present ? j : lane;
  };
  unsigned sources[64];  // a warp's, at most 64 lanes
  if (uniform)
    for (unsigned lane = 0; lane < warp; ++lane) sources[lane] = source_of(lane, b.lane_arg[0], warp);
  for (unsigned base = r.first; base < r.end; base += warp) {
    const unsigned present = r.end - base < warp ? r.end - base : warp;
    const std::byte* in = b.lane_in + std::size_t{base} * Size;
    std::byte* out = b.lane_out + std::size_t{base} * Size;
    if (uniform && present == warp) {
      for (unsigned lane = 0; lane < warp; ++lane)
        std::memcpy(out + std::size_t{lane} * Size, in + std::size_t{sources[lane]} * Size, Size);
      continue;
    }
    for (unsigned lane = 0; lane < present; ++lane) {
      const std::uint64_t arg = b.lane_arg[uniform ? 0 : base + lane];
      std::memcpy(out + std::size_t{lane} * Size, in + std::size_t{source_of(lane, arg, present)} * Size, Size);
    }
  }
}

template <std::size_t Size>
void exchange(const loops_block& b, lane_range r, unsigned warp, bool uniform, shuffle_kind kind) {
  // Each source a type of its own, so that every instantiation inlines its own.
  switch (kind) {
    case shuffle_kind::idx:
      return exchange<Size>(b, r, warp, uniform, [](auto... a) { return lane_ops::idx_source(a...); });
    case shuffle_kind::up:
      return exchange<Size>(b, r, warp, uniform, [](auto... a) { return lane_ops::up_source(a...); });
    case shuffle_kind::down:
      return exchange<Size>(b, r, warp, uniform, [](auto... a) { return lane_ops::down_source(a...); });
    case shuffle_kind::xor_lanes:
      return exchange<Size>(b, r, warp, uniform, [](auto... a) { return lane_ops::xor_source(a...); });
  }
}

}  // namespace

void check_lanes_in_mask(const loops_block& b, lane_range r, unsigned warp, const char* intrinsic, std::uint64_t mask,
                         std::source_location where) {
  const unsigned lanes = r.end - r.first < warp ? r.end - r.first : warp;
  if ((mask & low_lanes(lanes)) == low_lanes(lanes)) [[likely]]
    return;
  const unsigned lane = r.first + static_cast<unsigned>(std::countr_one(mask));
  const unsigned x = lane % b.dim_x, y = lane / b.dim_x % b.dim_y, z = lane / (b.dim_x * b.dim_y);
  cohort_loops_enter_thread(x, y, z, lane - x);
  fail_lane_outside_mask(intrinsic, mask, where);
}

}  // namespace cohort::detail::host

using namespace cohort::detail::host;

namespace {

void exchange_lanes(const loops_block& b, lane_range r, unsigned kind, unsigned size, std::uint64_t mask,
                    std::source_location where, bool uniform_arg, tile_lanes_function lanes) {
  const unsigned warp = current_block->warp_size;
  // A tile's fold, vote or match: no mask to check (a tile is consecutive ranks), the header's function over each
  // tile.
  if (kind >= static_cast<unsigned>(tile_kind::fold))
    return lanes(b.lane_in, b.lane_out, r.first, r.end, static_cast<unsigned>(mask));
  if (kind >= static_cast<unsigned>(tile_kind::shfl))  // `mask` is the tile's size
    return exchange_tiles(b, r, kind, size, static_cast<unsigned>(mask), uniform_arg);
  if (kind > static_cast<unsigned>(shuffle_kind::xor_lanes)) return combine_lanes(b, r, warp, kind, size, mask, where);
  const auto k = static_cast<shuffle_kind>(kind);
  check_lanes_in_mask(b, r, warp, shuffle_names[kind], mask, where);
  switch (size) {
    case 1:
      return exchange<1>(b, r, warp, uniform_arg, k);
    case 2:
      return exchange<2>(b, r, warp, uniform_arg, k);
    case 4:
      return exchange<4>(b, r, warp, uniform_arg, k);
    case 8:
      return exchange<8>(b, r, warp, uniform_arg, k);
    case 16:
      return exchange<16>(b, r, warp, uniform_arg, k);
    case 32:
      return exchange<32>(b, r, warp, uniform_arg, k);
  }
}

}  // namespace

extern "C" {

void cohort_loops_lane_exchange(loops_block* block, unsigned kind, unsigned size, std::uint64_t mask,
                                std::source_location where, bool uniform_arg, tile_lanes_function lanes) {
  exchange_lanes(*block, {0, block->count}, kind, size, mask, where, uniform_arg, lanes);
}

// The same for the warp whose first rank is `first` alone: the kernel's regions
// run per warp (collectives in warp-uniform control flow), and only this warp
// stopped at the collective. The pass proved warps of 32 lanes; the launch ran
// the kernel on loops only with such warps (choose_launch_engine).
void cohort_loops_lane_exchange_warp(loops_block* block, unsigned first, unsigned kind, unsigned size,
                                     std::uint64_t mask, std::source_location where, bool uniform_arg,
                                     tile_lanes_function lanes) {
  const unsigned warp = current_block->warp_size;
  exchange_lanes(*block, {first, block->count - first < warp ? block->count : first + warp}, kind, size, mask, where,
                 uniform_arg, lanes);
}

}  // extern "C"
