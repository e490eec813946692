// The collectives behind CUDA's __*_sync intrinsics, as combines in lane
// space (a reduction's order is lane order): masks carry bit l for lane l of the warp, and shuffles follow PTX's
// shfl.sync. A shuffle's argument packs the lane operand (low 32 bits, already
// cut to the bits that name a lane, as shfl.sync's b[4:0]) and the width (high
// 32 bits); each lane's segment is the aligned run of `width` lanes that holds
// it. The sources are PTX's: idx reads lane first + (b & (width - 1)); up reads
// lane - b if that stays in the segment; down reads lane + b if that stays in
// the segment; xor reads lane ^ b if that is not above the segment. A source
// outside that range, or a lane the block does not have (a partial last warp),
// leaves the caller its own value; a source lane that exists but takes no part
// (outside the mask, or exited) is an error: CUDA leaves the value undefined.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>

#include "cohort/detail/host/collectives/collective.hpp"

namespace cohort::detail::host {
// Fails the block: lane `lane` of a shuffle read lane `source`, which takes no part.
[[noreturn]] void shuffle_source_absent(const combine_context& c, unsigned lane, unsigned source);
}  // namespace cohort::detail::host

namespace cohort::detail::host::lane_ops {

inline std::uint64_t pack(unsigned operand, unsigned width) { return operand | std::uint64_t{width} << 32; }

// `source` gives the lane each lane reads, always a lane of the warp (its own
// where PTX leaves the caller its value): operands arrive cut to the bits that
// name a lane and segments lie within the warp, so no source needs a range check.
template <std::size_t Size, class Source>
void shuffle(const combine_context& c, Source source) {
  // Read once: to the compiler, the copies below could change them.
  const unsigned threads = current_block->thread_count, count = c.count, warp_base = c.warp_base, first = c.first;
  const std::uint64_t lanes = c.lanes;
  collective_slot* const warp = c.slots + warp_base;
  // The loop once for consecutive lanes (a whole warp: no index to load)
  // and once for the others.
  const auto each_lane = [&](auto lane_of) {
    for (unsigned r = 0; r < count; ++r) {
      const unsigned lane = lane_of(r);
      collective_slot& me = warp[lane];
      const unsigned operand = static_cast<unsigned>(me.arg);
      const unsigned width = static_cast<unsigned>(me.arg >> 32);
      unsigned j = source(lane, operand, width, lane & ~(width - 1));
      if (((lanes >> j) & 1) == 0) [[unlikely]] {
        if (warp_base + j < threads) shuffle_source_absent(c, lane, j);
        j = lane;  // a lane the block does not have
      }
      std::memcpy(me.out, warp[j].in, Size);
    }
  };
  if (const unsigned* const who = c.who; who == nullptr)
    each_lane([first_lane = first - warp_base](unsigned r) { return first_lane + r; });
  else
    each_lane([who, warp_base](unsigned r) { return who[r] - warp_base; });
}

// The lane each shuffle reads (PTX's shfl.sync modes), from the caller's lane,
// its operand, its width and the first lane of its segment.
inline unsigned idx_source(unsigned, unsigned src, unsigned width, unsigned first) {
  return first + (src & (width - 1));
}
inline unsigned up_source(unsigned lane, unsigned delta, unsigned, unsigned first) {
  return delta <= lane - first ? lane - delta : lane;
}
inline unsigned down_source(unsigned lane, unsigned delta, unsigned width, unsigned first) {
  return lane + delta < first + width ? lane + delta : lane;
}
// As in PTX, only the top of the segment bounds the source, so a lane mask
// wider than the width may reach into a lower segment.
inline unsigned xor_source(unsigned lane, unsigned mask, unsigned width, unsigned first) {
  const unsigned j = lane ^ mask;
  return j < first + width ? j : lane;
}

template <std::size_t Size>
void shfl(const combine_context& c) {
  shuffle<Size>(c, idx_source);
}
template <std::size_t Size>
void shfl_up(const combine_context& c) {
  shuffle<Size>(c, up_source);
}
template <std::size_t Size>
void shfl_down(const combine_context& c) {
  shuffle<Size>(c, down_source);
}
template <std::size_t Size>
void shfl_xor(const combine_context& c) {
  shuffle<Size>(c, xor_source);
}

template <class R>
void broadcast(const combine_context& c, const R& result) {
  for (unsigned r = 0; r < c.count; ++r) std::memcpy(c.at(r).out, &result, sizeof(R));
}

inline std::uint64_t voters(const combine_context& c) {
  std::uint64_t m = 0;
  for (unsigned r = 0; r < c.count; ++r)
    if (c.at(r).arg) m |= std::uint64_t{1} << c.lane_of(r);
  return m;
}
inline void ballot(const combine_context& c) { broadcast(c, voters(c)); }
inline void any(const combine_context& c) { broadcast(c, static_cast<int>(voters(c) != 0)); }
inline void all(const combine_context& c) { broadcast(c, static_cast<int>(voters(c) == c.lanes)); }

template <std::size_t Size>
void match_any(const combine_context& c) {
  for (unsigned r = 0; r < c.count; ++r) {
    std::uint64_t m = 0;
    for (unsigned s = 0; s < c.count; ++s)
      if (std::memcmp(c.at(s).in, c.at(r).in, Size) == 0) m |= std::uint64_t{1} << c.lane_of(s);
    std::memcpy(c.at(r).out, &m, sizeof m);
  }
}

// The members' lanes where every value is the same, else 0 (never 0 otherwise:
// the caller's lane is a member), so the result says the predicate too.
template <std::size_t Size>
void match_all(const combine_context& c) {
  bool same = true;
  for (unsigned r = 1; r < c.count && same; ++r) same = std::memcmp(c.at(r).in, c.at(0).in, Size) == 0;
  broadcast(c, same ? c.lanes : std::uint64_t{0});
}

// __reduce_*_sync: the members' values folded in lane order.
struct minimum {
  template <class T>
  T operator()(T a, T b) const {
    return b < a ? b : a;
  }
};
struct maximum {
  template <class T>
  T operator()(T a, T b) const {
    return a < b ? b : a;
  }
};

template <class T, class Op>
void reduce(const combine_context& c) {
  T acc;
  std::memcpy(&acc, c.at(0).in, sizeof(T));
  for (unsigned r = 1; r < c.count; ++r) {
    T v;
    std::memcpy(&v, c.at(r).in, sizeof(T));
    acc = Op{}(acc, v);
  }
  broadcast(c, acc);
}

template <std::size_t Size>
inline constexpr collective_op shfl_op{"__shfl_sync", &shfl<Size>, nullptr};
template <std::size_t Size>
inline constexpr collective_op shfl_up_op{"__shfl_up_sync", &shfl_up<Size>, nullptr};
template <std::size_t Size>
inline constexpr collective_op shfl_down_op{"__shfl_down_sync", &shfl_down<Size>, nullptr};
template <std::size_t Size>
inline constexpr collective_op shfl_xor_op{"__shfl_xor_sync", &shfl_xor<Size>, nullptr};
inline constexpr collective_op ballot_op{"__ballot_sync", &ballot, nullptr};
inline constexpr collective_op any_op{"__any_sync", &any, nullptr};
inline constexpr collective_op all_op{"__all_sync", &all, nullptr};
template <std::size_t Size>
inline constexpr collective_op match_any_op{"__match_any_sync", &match_any<Size>, nullptr};
template <std::size_t Size>
inline constexpr collective_op match_all_op{"__match_all_sync", &match_all<Size>, nullptr};
template <class T>
inline constexpr collective_op reduce_add_op{"__reduce_add_sync", &reduce<T, std::plus<T>>, nullptr};
template <class T>
inline constexpr collective_op reduce_min_op{"__reduce_min_sync", &reduce<T, minimum>, nullptr};
template <class T>
inline constexpr collective_op reduce_max_op{"__reduce_max_sync", &reduce<T, maximum>, nullptr};
inline constexpr collective_op reduce_and_op{"__reduce_and_sync", &reduce<unsigned, std::bit_and<unsigned>>, nullptr};
inline constexpr collective_op reduce_or_op{"__reduce_or_sync", &reduce<unsigned, std::bit_or<unsigned>>, nullptr};
inline constexpr collective_op reduce_xor_op{"__reduce_xor_sync", &reduce<unsigned, std::bit_xor<unsigned>>, nullptr};

}  // namespace cohort::detail::host::lane_ops
