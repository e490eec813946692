// The collectives of the group API (tiles, coalesced groups, partitions) as
// combines in rank space: member r of the group is c.at(r), and masks carry
// bit r for rank r. Shuffles move Size bytes, so one instantiation serves
// every type of that size (int and float meet at the same shuffle, as they
// do in hardware). A shuffle source outside [0, count) leaves the member its
// own value: CUDA's rule for shfl_up/shfl_down, applied to shfl_xor and to
// a tile's shfl after its wrap at the width (shfl_arg).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <type_traits>

#include "cohort/detail/host/collectives/collective.hpp"
#include "cohort/groups/lane_mask.hpp"

namespace cohort::detail::host::group_ops {

template <std::size_t Size, class Source>
void shuffle(const combine_context& c, Source source) {
  with_slots(c, [&](auto at) {
    for (unsigned r = 0, count = c.count; r < count; ++r) {
      collective_slot& me = at(r);
      std::memcpy(me.out, at(source(r, me.arg, count)).in, Size);
    }
  });
}

// shfl's argument: the source rank in the low word and, from a tile, its
// width N in the high word (0 from a coalesced group). A tile's source wraps
// at N, as shfl.sync's lane index wraps at its segment, and s mod N past a
// partial last tile's members leaves the caller its own value, as shfl_down
// does (and as shfl.sync's clamp makes it on a GPU). A coalesced group's
// wraps at its member count: s mod n. The width travels in the argument, not in a
// second op, so a tile's and a coalesced group's shfl remain one collective,
// as they are one shfl.sync on a GPU; messages about non-uniform arguments
// print the low word, the rank the caller passed.
inline std::uint64_t shfl_arg(unsigned src, unsigned width) { return std::uint64_t{width} << 32 | src; }

template <std::size_t Size>
void shfl(const combine_context& c) {
  shuffle<Size>(c, [](unsigned r, std::uint64_t arg, unsigned n) {
    const unsigned width = static_cast<unsigned>(arg >> 32), src = static_cast<unsigned>(arg);
    if (width == 0) return src % n;
    const unsigned wrapped = src & (width - 1);
    return wrapped < n ? wrapped : r;
  });
}
template <std::size_t Size>
void shfl_up(const combine_context& c) {
  shuffle<Size>(
      c, [](unsigned r, std::uint64_t delta, unsigned) { return delta <= r ? r - static_cast<unsigned>(delta) : r; });
}
template <std::size_t Size>
void shfl_down(const combine_context& c) {
  shuffle<Size>(c, [](unsigned r, std::uint64_t delta, unsigned n) {
    return r + delta < n ? r + static_cast<unsigned>(delta) : r;
  });
}
template <std::size_t Size>
void shfl_xor(const combine_context& c) {
  shuffle<Size>(c, [](unsigned r, std::uint64_t mask, unsigned n) {
    return (r ^ mask) < n ? r ^ static_cast<unsigned>(mask) : r;
  });
}

template <class R>
void broadcast(const combine_context& c, const R& result) {
  for (unsigned r = 0; r < c.count; ++r) std::memcpy(c.at(r).out, &result, sizeof(R));
}

inline void any(const combine_context& c) {
  int v = 0;
  for (unsigned r = 0; r < c.count; ++r) v |= c.at(r).arg != 0;
  broadcast(c, v);
}
inline void all(const combine_context& c) {
  int v = 1;
  for (unsigned r = 0; r < c.count; ++r) v &= c.at(r).arg != 0;
  broadcast(c, v);
}

template <class Mask>
void set_rank(Mask& m, unsigned r) {
  if constexpr (std::is_integral_v<Mask>)
    m |= Mask{1} << r;
  else
    m.set(r);
}

template <class Mask>
void ballot(const combine_context& c) {
  Mask m{};
  for (unsigned r = 0; r < c.count; ++r)
    if (c.at(r).arg) set_rank(m, r);
  broadcast(c, m);
}

// Equal values are equal object representations, as the hardware compares
// them (so -0.0 and 0.0 differ, and a NaN matches its own bits). Sorting the
// ranks by value keeps a 1024-thread tile's match cheap.
template <std::size_t Size, class Mask>
void match_any(const combine_context& c) {
  unsigned* order = c.scratch;
  std::iota(order, order + c.count, 0u);
  const auto compare = [&](unsigned a, unsigned b) { return std::memcmp(c.at(a).in, c.at(b).in, Size); };
  std::sort(order, order + c.count, [&](unsigned a, unsigned b) {
    const int d = compare(a, b);
    return d < 0 || (d == 0 && a < b);
  });
  for (unsigned first = 0; first < c.count;) {
    unsigned last = first + 1;
    while (last < c.count && compare(order[first], order[last]) == 0) ++last;
    Mask m{};
    for (unsigned k = first; k < last; ++k) set_rank(m, order[k]);
    for (unsigned k = first; k < last; ++k) std::memcpy(c.at(order[k]).out, &m, sizeof(Mask));
    first = last;
  }
}

template <std::size_t Size>
void match_all(const combine_context& c) {
  int same = 1;
  for (unsigned r = 1; r < c.count && same; ++r) same = std::memcmp(c.at(r).in, c.at(0).in, Size) == 0;
  broadcast(c, same);
}

// What a partition hands each member: the lanes of its new group and where
// that group stands among its siblings.
struct partition_result {
  std::uint64_t lanes;
  unsigned meta_rank;
  unsigned meta_size;
};

// Groups are numbered in the order of their lowest rank, so meta ranks run
// over [0, number of distinct labels).
inline void labeled(const combine_context& c) {
  constexpr unsigned unassigned = ~0u;
  unsigned* group = c.scratch;
  std::fill(group, group + c.count, unassigned);
  std::uint64_t lanes[64] = {};
  unsigned groups = 0;
  for (unsigned r = 0; r < c.count; ++r) {
    if (group[r] == unassigned) {
      for (unsigned s = r; s < c.count; ++s)
        if (group[s] == unassigned && c.at(s).arg == c.at(r).arg) group[s] = groups;
      ++groups;
    }
    lanes[group[r]] |= std::uint64_t{1} << c.lane_of(r);
  }
  for (unsigned r = 0; r < c.count; ++r) {
    const partition_result result{lanes[group[r]], group[r], groups};
    std::memcpy(c.at(r).out, &result, sizeof result);
  }
}

// NVIDIA's rule: a split gives meta rank = the predicate and meta size 2; a
// group whose members all agree stays whole, meta rank 0 of 1.
inline void binary(const combine_context& c) {
  std::uint64_t set = 0, all = 0;
  for (unsigned r = 0; r < c.count; ++r) {
    const std::uint64_t lane = std::uint64_t{1} << c.lane_of(r);
    all |= lane;
    if (c.at(r).arg) set |= lane;
  }
  const bool split = set != 0 && set != all;
  for (unsigned r = 0; r < c.count; ++r) {
    const bool pred = c.at(r).arg != 0;
    const partition_result result =
        split ? partition_result{pred ? set : all & ~set, pred ? 1u : 0u, 2u} : partition_result{all, 0u, 1u};
    std::memcpy(c.at(r).out, &result, sizeof result);
  }
}

template <std::size_t Size>
inline constexpr collective_op shfl_op{"shfl", &shfl<Size>, "source rank"};
template <std::size_t Size>
inline constexpr collective_op shfl_up_op{"shfl_up", &shfl_up<Size>, "delta"};
template <std::size_t Size>
inline constexpr collective_op shfl_down_op{"shfl_down", &shfl_down<Size>, "delta"};
template <std::size_t Size>
inline constexpr collective_op shfl_xor_op{"shfl_xor", &shfl_xor<Size>, "lane mask"};
inline constexpr collective_op any_op{"any", &any, nullptr};
inline constexpr collective_op all_op{"all", &all, nullptr};
template <class Mask>
inline constexpr collective_op ballot_op{"ballot", &ballot<Mask>, nullptr};
template <std::size_t Size, class Mask>
inline constexpr collective_op match_any_op{"match_any", &match_any<Size, Mask>, nullptr};
template <std::size_t Size>
inline constexpr collective_op match_all_op{"match_all", &match_all<Size>, nullptr};
inline constexpr collective_op labeled_partition_op{"labeled_partition", &labeled, nullptr};
inline constexpr collective_op binary_partition_op{"binary_partition", &binary, nullptr};

}  // namespace cohort::detail::host::group_ops
