// The host backend's primitives under thread_block_tile and a tile's
// thread_group (include/cohort/groups/): where a tile lies in its block and
// its lane operations, each one collective (collective.hpp) of the tile's
// members with its combine in group_ops.hpp. A tile of n is the aligned run of
// n block ranks that holds the caller, cut short at the end of a block whose
// size is not a multiple of n; tiles up to the warp size are a lane mask of
// one warp, wider ones a span of block ranks.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

#include "cohort/backend.hpp"
#include "cohort/detail/host/collectives/collective.hpp"
#include "cohort/detail/host/collectives/group_ops.hpp"
#include "cohort/detail/host/collectives/match_key.hpp"
#include "cohort/detail/host/runtime/sync_points.hpp"
#include "cohort/groups/lane_mask.hpp"

namespace cohort::detail::host {

inline unsigned tile_base(unsigned size) { return block_rank() & ~(size - 1); }
inline unsigned tile_rank(unsigned size) { return block_rank() & (size - 1); }
// size, or what exists of the block's last tile.
inline unsigned tile_count(unsigned size) {
  const unsigned left = current_block->thread_count - tile_base(size);
  return left < size ? left : size;
}
inline member_set tile_members(unsigned size) {
  const unsigned base = tile_base(size), count = tile_count(size);
  if (size > warp_size()) return {base, count, 0};
  const unsigned warp = warp_base();
  return {warp, count, low_lanes(count) << (base - warp)};
}
inline void tile_sync(unsigned size, call_site where) { synchronize(tile_members(size), where); }

// A tile's shuffles and sync, as the loops pass knows them (tools/loops-pass/lane_exchange.cpp;
// runtime_abi.hpp spells the kinds, after the warp intrinsics'): for a tile of 32 or fewer, under
// clang a function of its own, so that the pass can lower it to the block's lane arrays (a tile
// is consecutive ranks by construction); elsewhere, and on fibers, the rendezvous. `fold` is
// cg::reduce's and the scans' (collectives/tile_fold.hpp), `vote` any's, all's and ballot's (tile_vote, below),
// `match_any` and `match_all` the tile's matches (tile_match, below).
enum class tile_kind : unsigned { shfl = 18, shfl_up, shfl_down, shfl_xor, sync, fold, vote, match_any, match_all };

// A tile's fold or vote over the block's lane arrays, for the loops engine: its
// results for each tile of `tile` consecutive ranks in [first, end) (the last
// one what exists of it), each member's value in `in` and its result to `out`,
// as many bytes apart as the value has.
using tile_lanes_function = void (*)(const std::byte* in, std::byte* out, unsigned first, unsigned end, unsigned tile);

template <class T>
#if defined(__clang__)
__attribute__((noinline))
#endif
T tile_exchange(tile_kind kind, unsigned size, const collective_op& op, T var, std::uint64_t arg, call_site where) {
  if (kind == tile_kind::sync) {
    synchronize(tile_members(size), where);
    return T{};
  }
  // A tile wider than a warp needs the same shuffle argument from every member.
  return collective<T>({tile_members(size), &op, where, false, size > warp_size()}, var, arg);
}

// A vote of a tile of 32 or fewer (tile_kind::vote), as the loops pass knows it: under clang a
// function of its own, which the pass lowers like tile_fold (collectives/tile_fold.hpp): each
// member's predicate (0 or 1, as the result's type R) into the lane arrays, and `lanes`
// (vote_tile_lanes) run once over the block's tiles. Elsewhere, and on fibers, the rendezvous
// with `self` (group_ops' any, all or ballot), the predicate its argument.
enum class vote_kind { any, all, ballot };

template <vote_kind Vote, class R>
void vote_tile_lanes(const std::byte* in, std::byte* out, unsigned first, unsigned end, unsigned tile) {
  for (unsigned base = first; base < end; base += tile) {
    const unsigned count = end - base < tile ? end - base : tile;
    R result = Vote == vote_kind::all ? 1 : 0;
    for (unsigned r = 0; r < count; ++r) {
      const bool voted = from_bytes<R>(in + std::size_t{base + r} * sizeof(R)) != 0;
      if constexpr (Vote == vote_kind::any)
        result |= voted;
      else if constexpr (Vote == vote_kind::all)
        result &= voted;
      else if (voted)
        result |= R{1} << r;
    }
    for (unsigned r = 0; r < count; ++r) std::memcpy(out + std::size_t{base + r} * sizeof(R), &result, sizeof(R));
  }
}

template <class R>
#if defined(__clang__)
__attribute__((noinline))
#endif
R tile_vote(tile_kind, unsigned size, tile_lanes_function, R predicate, const collective_op& self, call_site where) {
  return collective<R>({tile_members(size), &self, where, false, false}, static_cast<std::uint64_t>(predicate));
}

// A match of a tile of 32 or fewer (tile_kind::match_any, match_all), as the loops pass knows it: lowered like
// tile_vote, each member's key (match_key.hpp) into the lane arrays and `lanes` (match_tile_lanes) run once over
// the block's tiles. The result, in the key's first 8 bytes, is the mask of the members whose value is the
// caller's (bit r for rank r), or for match_all the tile's members where every value is the same, else 0.
// Elsewhere, and on fibers, the rendezvous with `self` (group_ops' match_any or match_all).
// (The runtime runs it over warps too, for __match_*_sync: a warp is a tile of its lanes.) Each group of equal
// keys is found once, from its lowest rank, without a branch on the comparisons.
template <tile_kind Kind, class Key>
void match_tile_lanes(const std::byte* in, std::byte* out, unsigned first, unsigned end, unsigned tile) {
  const auto key = [&](unsigned rank) { return in + std::size_t{rank} * sizeof(Key); };
  const auto same = [&](unsigned a, unsigned b) { return std::memcmp(key(a), key(b), sizeof(Key)) == 0; };
  const auto put = [&](unsigned rank, std::uint64_t mask) {
    std::memcpy(out + std::size_t{rank} * sizeof(Key), &mask, sizeof mask);
  };
  for (unsigned base = first; base < end; base += tile) {
    const unsigned count = end - base < tile ? end - base : tile;
    if constexpr (Kind == tile_kind::match_all) {
      bool all = true;
      for (unsigned r = 1; r < count; ++r) all &= same(base, base + r);
      for (unsigned r = 0; r < count; ++r) put(base + r, all ? low_lanes(count) : 0);
    } else {
      for (std::uint64_t rest = low_lanes(count); rest != 0;) {  // members whose group is not written yet
        const unsigned r = static_cast<unsigned>(std::countr_zero(rest));
        std::uint64_t group = 0;
        for (unsigned s = r; s < count; ++s) group |= std::uint64_t{same(base + r, base + s)} << s;
        rest &= ~group;
        for (std::uint64_t g = group; g != 0; g &= g - 1) put(base + static_cast<unsigned>(std::countr_zero(g)), group);
      }
    }
  }
}

template <class Key>
#if defined(__clang__)
__attribute__((noinline))
#endif
Key tile_match(tile_kind kind, unsigned size, tile_lanes_function, Key key, const collective_op& self,
               call_site where) {
  const collective_call call{tile_members(size), &self, where, false, false};
  if (kind == tile_kind::match_any) return match_result_key<Key>(collective<std::uint64_t>(call, key, 0));
  return match_result_key<Key>(collective<int>(call, key, 0) ? low_lanes(tile_count(size)) : 0);
}

// ballot() and match_*() of a tile of Size: bit r for the member of rank r.
template <unsigned Size>
using tile_mask_t =
    std::conditional_t<(Size <= 32), unsigned, std::conditional_t<(Size <= 64), unsigned long long, lane_mask<Size>>>;

// Ranks [0, count) set.
template <class Mask>
Mask first_ranks(unsigned count) {
  if constexpr (std::is_integral_v<Mask>) {
    return static_cast<Mask>(low_lanes(count));
  } else {
    Mask m{};
    for (unsigned r = 0; r < count; ++r) m.set(r);
    return m;
  }
}

template <unsigned Size>
struct tile_ops {
  using mask_type = tile_mask_t<Size>;

  static void sync(call_site where) {
    if constexpr (Size <= 32)
      tile_exchange<unsigned>(tile_kind::sync, Size, sync_op, 0u, 0, where);
    else
      tile_sync(Size, where);
  }

  template <class Value>
  static Value shfl(const Value& var, unsigned src_rank, call_site where) {
    return shuffle(tile_kind::shfl, group_ops::shfl_op<sizeof(Value)>, var, group_ops::shfl_arg(src_rank, Size), where);
  }
  template <class Value>
  static Value shfl_up(const Value& var, unsigned delta, call_site where) {
    return shuffle(tile_kind::shfl_up, group_ops::shfl_up_op<sizeof(Value)>, var, delta, where);
  }
  template <class Value>
  static Value shfl_down(const Value& var, unsigned delta, call_site where) {
    return shuffle(tile_kind::shfl_down, group_ops::shfl_down_op<sizeof(Value)>, var, delta, where);
  }
  template <class Value>
  static Value shfl_xor(const Value& var, unsigned lane_mask, call_site where) {
    return shuffle(tile_kind::shfl_xor, group_ops::shfl_xor_op<sizeof(Value)>, var, lane_mask, where);
  }

  static int any(int predicate, call_site where) {
    return vote<int, vote_kind::any>(group_ops::any_op, predicate, where);
  }
  static int all(int predicate, call_site where) {
    return vote<int, vote_kind::all>(group_ops::all_op, predicate, where);
  }
  static mask_type ballot(int predicate, call_site where) {
    return vote<mask_type, vote_kind::ballot>(group_ops::ballot_op<mask_type>, predicate, where);
  }
  template <class Value>
  static mask_type match_any(const Value& val, call_site where) {
    if constexpr (Size <= 32 && has_match_key<sizeof(Value)>) {
      using key = match_key<sizeof(Value)>;
      return static_cast<mask_type>(
          match_result(tile_match<key>(tile_kind::match_any, Size, &match_tile_lanes<tile_kind::match_any, key>,
                                       to_match_key(val), group_ops::match_any_op<sizeof(key), std::uint64_t>, where)));
    } else {
      return collective<mask_type>(call(group_ops::match_any_op<sizeof(Value), mask_type>, where), val, 0);
    }
  }
  template <class Value>
  static mask_type match_all(const Value& val, int& pred, call_site where) {
    if constexpr (Size <= 32 && has_match_key<sizeof(Value)>) {
      using key = match_key<sizeof(Value)>;
      const std::uint64_t members =
          match_result(tile_match<key>(tile_kind::match_all, Size, &match_tile_lanes<tile_kind::match_all, key>,
                                       to_match_key(val), group_ops::match_all_op<sizeof(key)>, where));
      pred = members != 0;
      return static_cast<mask_type>(members);
    } else {
      pred = collective<int>(call(group_ops::match_all_op<sizeof(Value)>, where), val, 0);
      return pred ? first_ranks<mask_type>(tile_count(Size)) : mask_type{};
    }
  }

 private:
  static collective_call call(const collective_op& op, call_site where, bool uniform_arg = false) {
    return {tile_members(Size), &op, where, false, uniform_arg};
  }
  template <class Value>
  static Value shuffle(tile_kind kind, const collective_op& op, const Value& var, std::uint64_t arg, call_site where) {
    if constexpr (Size <= 32)
      return tile_exchange<Value>(kind, Size, op, var, arg, where);
    else  // a tile wider than a warp needs the same shuffle argument from every member
      return collective<Value>(call(op, where, true), var, arg);
  }
  template <class Result, vote_kind Vote>
  static Result vote(const collective_op& op, int predicate, call_site where) {
    if constexpr (Size <= 32)
      return tile_vote<Result>(tile_kind::vote, Size, &vote_tile_lanes<Vote, Result>, Result(predicate != 0), op,
                               where);
    else
      return collective<Result>(call(op, where), predicate != 0);
  }
};

// Partitioning a block into tiles needs no preparation on the host.
inline void prepare_block_tiles(unsigned) {}

// Tile sizes are powers of two from 1 to 1024.
inline void check_tile_size(unsigned size, call_site where) {
  if (size == 0 || size > 1024 || (size & (size - 1)) != 0)
    usage_error(errc::invalid_argument,
                "tiled_partition into tiles of " + std::to_string(size) +
                    " threads: a tile size is a power of two from 1 to 1024",
                where);
}
inline void check_tile_of_tile(unsigned size, unsigned parent_size, call_site where) {
  if (size > parent_size)
    usage_error(errc::invalid_argument,
                "tiled_partition into tiles of " + std::to_string(size) + " threads of a tile of " +
                    std::to_string(parent_size) + ": the tile size must divide the parent's",
                where);
}
[[noreturn]] inline void partition_error(const char* message, call_site where) {
  usage_error(errc::invalid_argument, message, where);
}

// NVIDIA's block_tile_memory is scratch for wide tiles on old GPUs; the host
// needs none, keeps the call a collective of the whole block, as it is on a
// GPU, and checks that the block fits.
inline void block_tile_memory_check(unsigned max_block_size, call_site where) {
  const unsigned threads = current_block->thread_count;
  if (threads > max_block_size)
    usage_error(errc::invalid_argument,
                "this_thread_block(block_tile_memory<" + std::to_string(max_block_size) + ">) in a block of " +
                    std::to_string(threads) + " threads: the memory serves blocks of at most " +
                    std::to_string(max_block_size),
                where);
  block_sync(where);
}

}  // namespace cohort::detail::host
