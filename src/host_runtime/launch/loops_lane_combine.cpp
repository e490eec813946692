// Votes, __reduce_*_sync, __syncwarp and __match_*_sync that the loops pass lowered to the
// block's lane arrays (docs/loops-engine.md, "Warp-level operations"): every
// thread of the block stopped at one of them, its mask a constant, each lane's
// value in lane_in. Each warp (the partial last one too, its missing lanes
// excused as on fibers) is one group: its value folded in lane order, exactly
// as lane_ops' combines fold the slots on fibers, and left in each lane's lane_out;
// a match's masks found as a tile's are (match_tile_lanes, tile_primitives.hpp).
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <source_location>

#include "cohort/detail/host/collectives/lane_ops.hpp"
#include "cohort/detail/host/language/warp_intrinsics.hpp"
#include "cohort/detail/host/tile_primitives.hpp"
#include "launch/loops_lanes.hpp"

namespace cohort::detail::host {

namespace {

// Calls fold(base, present) for each warp of the block, its first rank and
// how many of its lanes the block has, and writes the warp's result it
// returns to each of those lanes' lane_out.
template <class Fold>
void per_warp(const loops_block& b, lane_range r, unsigned warp, Fold fold) {
  for (unsigned base = r.first; base < r.end; base += warp) {
    const unsigned present = r.end - base < warp ? r.end - base : warp;
    const auto result = fold(base, present);
    for (unsigned lane = 0; lane < present; ++lane)
      std::memcpy(b.lane_out + (std::size_t{base} + lane) * sizeof result, &result, sizeof result);
  }
}

template <class T>
T lane_value(const loops_block& b, unsigned rank) {
  T v;
  std::memcpy(&v, b.lane_in + std::size_t{rank} * sizeof(T), sizeof(T));
  return v;
}

// A vote: the lanes whose predicate (of type T) is not 0, in lane space, as
// `finish` turns them into the result.
template <class T, class Finish>
void vote(const loops_block& b, lane_range r, unsigned warp, Finish finish) {
  per_warp(b, r, warp, [&](unsigned base, unsigned present) {
    std::uint64_t voters = 0;
    for (unsigned lane = 0; lane < present; ++lane)
      if (lane_value<T>(b, base + lane) != 0) voters |= std::uint64_t{1} << lane;
    return finish(voters, present);
  });
}

// A reduction: the lanes' values folded in lane order, from lane 0's.
template <class T, class Op>
void reduce(const loops_block& b, lane_range r, unsigned warp) {
  per_warp(b, r, warp, [&](unsigned base, unsigned present) {
    T acc = lane_value<T>(b, base);
    for (unsigned lane = 1; lane < present; ++lane) acc = Op{}(acc, lane_value<T>(b, base + lane));
    return acc;
  });
}

const collective_op& operation(combine_kind kind) {
  switch (kind) {
    case combine_kind::ballot:
      return lane_ops::ballot_op;
    case combine_kind::any:
      return lane_ops::any_op;
    case combine_kind::all:
      return lane_ops::all_op;
    case combine_kind::reduce_add:
      return lane_ops::reduce_add_op<unsigned>;
    case combine_kind::reduce_min_unsigned:
      return lane_ops::reduce_min_op<unsigned>;
    case combine_kind::reduce_min_signed:
      return lane_ops::reduce_min_op<int>;
    case combine_kind::reduce_max_unsigned:
      return lane_ops::reduce_max_op<unsigned>;
    case combine_kind::reduce_max_signed:
      return lane_ops::reduce_max_op<int>;
    case combine_kind::reduce_and:
      return lane_ops::reduce_and_op;
    case combine_kind::reduce_or:
      return lane_ops::reduce_or_op;
    case combine_kind::reduce_xor:
      return lane_ops::reduce_xor_op;
    case combine_kind::match_any:  // (the name is the same for every size)
      return lane_ops::match_any_op<8>;
    case combine_kind::match_all:
      return lane_ops::match_all_op<8>;
    case combine_kind::sync:
      break;
  }
  return sync_op;
}

}  // namespace

void combine_lanes(const loops_block& b, lane_range r, unsigned warp, unsigned kind, unsigned size, std::uint64_t mask,
                   std::source_location where) {
  const auto k = static_cast<combine_kind>(kind);
  check_lanes_in_mask(b, r, warp, operation(k).name, mask, where);
  // A vote's predicate has its result's type (lane_combine<T>): 8 bytes for a ballot, 4 for the others.
  switch (k) {
    case combine_kind::ballot:
      return vote<std::uint64_t>(b, r, warp, [](std::uint64_t voters, unsigned) { return voters; });
    case combine_kind::any:
      return vote<int>(b, r, warp, [](std::uint64_t voters, unsigned) { return static_cast<int>(voters != 0); });
    case combine_kind::all:
      return vote<int>(b, r, warp, [](std::uint64_t voters, unsigned present) {
        return static_cast<int>(voters == low_lanes(present));
      });
    case combine_kind::reduce_add:  // added as unsigned: overflow wraps, as in hardware
      return reduce<unsigned, std::plus<unsigned>>(b, r, warp);
    case combine_kind::reduce_min_unsigned:
      return reduce<unsigned, lane_ops::minimum>(b, r, warp);
    case combine_kind::reduce_min_signed:
      return reduce<int, lane_ops::minimum>(b, r, warp);
    case combine_kind::reduce_max_unsigned:
      return reduce<unsigned, lane_ops::maximum>(b, r, warp);
    case combine_kind::reduce_max_signed:
      return reduce<int, lane_ops::maximum>(b, r, warp);
    case combine_kind::reduce_and:
      return reduce<unsigned, std::bit_and<unsigned>>(b, r, warp);
    case combine_kind::reduce_or:
      return reduce<unsigned, std::bit_or<unsigned>>(b, r, warp);
    case combine_kind::reduce_xor:
      return reduce<unsigned, std::bit_xor<unsigned>>(b, r, warp);
    case combine_kind::sync:  // every lane of the range is here: nothing more to wait for
      return;
    case combine_kind::match_any:  // a warp is a tile of its lanes; a key of 8 or 16 bytes
      return size == 8
                 ? match_tile_lanes<tile_kind::match_any, std::uint64_t>(b.lane_in, b.lane_out, r.first, r.end, warp)
                 : match_tile_lanes<tile_kind::match_any, match_key_16>(b.lane_in, b.lane_out, r.first, r.end, warp);
    case combine_kind::match_all:
      return size == 8
                 ? match_tile_lanes<tile_kind::match_all, std::uint64_t>(b.lane_in, b.lane_out, r.first, r.end, warp)
                 : match_tile_lanes<tile_kind::match_all, match_key_16>(b.lane_in, b.lane_out, r.first, r.end, warp);
  }
}

}  // namespace cohort::detail::host
