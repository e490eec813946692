// The collectives of a tile of Size > 32 threads (beyond NVIDIA, which offers
// sync, any, all and an 8-byte shfl there): through the shared scratch of
// wide_tile_barrier.hpp. An exchange is rounds of one 32-bit word: every
// member writes its word to its slot, the tile synchronizes, each member reads
// the slot of its source, and the tile synchronizes again, after which no one
// reads the slots (so the next collective of any group may write them). Votes
// gather one word per warp the same way. Sources follow the same rules as a
// warp tile's (docs/warp-level.md), so per-member arguments work here too,
// though the API asks for uniform ones.
#pragma once

#include <cuda_runtime.h>

#include <type_traits>

#include "cohort/detail/cuda/tiles/lanes.hpp"
#include "cohort/detail/cuda/tiles/tile_geometry.hpp"
#include "cohort/detail/cuda/tiles/wide_tile_barrier.hpp"
#include "cohort/detail/cuda/tiles/words.hpp"
#include "cohort/groups/lane_mask.hpp"

namespace cohort::detail::gpu {

// ballot() and match_*() of a tile of Size: bit r for the member of rank r.
template <unsigned Size>
using tile_mask_t =
    std::conditional_t<(Size <= 32), unsigned, std::conditional_t<(Size <= 64), unsigned long long, lane_mask<Size>>>;

// The first `count` ranks of a wide tile's mask.
template <class Mask>
__device__ Mask first_ranks(unsigned count) {
  if constexpr (std::is_integral_v<Mask>) {
    return count >= 64 ? ~0ull : (1ull << count) - 1;
  } else {
    Mask m{};
    for (unsigned i = 0; i * 64 < count; ++i)
      m.set_word(i, count - i * 64 >= 64 ? ~0ull : (1ull << (count - i * 64)) - 1);
    return m;
  }
}

// Word i (64 ranks) of a wide tile's mask.
template <class Mask>
__device__ void set_mask_word(Mask& m, unsigned i, unsigned long long bits) {
  if constexpr (std::is_integral_v<Mask>)
    m = bits;
  else
    m.set_word(i, bits);
}

template <unsigned Size>
struct wide_tile_ops {
  static_assert(Size > warp_lanes && Size <= max_block_threads);
  using mask_type = tile_mask_t<Size>;
  static constexpr unsigned warps = Size / warp_lanes;

  __device__ static void sync() { wide_tile_sync(Size); }

  // One round: the word of the member of rank source(rank, count).
  template <class Source>
  __device__ static unsigned exchange(unsigned word, Source&& source) {
    unsigned* slots = wide_scratch().words;
    const unsigned base = tile_base(Size), count = tile_count(Size), rank = block_rank() - base;
    slots[base + rank] = word;
    sync();
    const unsigned got = slots[base + source(rank, count)];
    sync();
    return got;
  }
  template <class T, class Source>
  __device__ static T exchange_value(const T& v, Source&& source) {
    return move_words(v, [&](unsigned w, unsigned) { return exchange(w, source); });
  }

  template <class T>
  __device__ static T shfl(const T& v, unsigned src) {
    return exchange_value(v, [t = src & (Size - 1)](unsigned r, unsigned n) { return t < n ? t : r; });
  }
  template <class T>
  __device__ static T shfl_up(const T& v, unsigned delta) {
    return exchange_value(v, [delta](unsigned r, unsigned) { return delta <= r ? r - delta : r; });
  }
  template <class T>
  __device__ static T shfl_down(const T& v, unsigned delta) {
    return exchange_value(v, [delta](unsigned r, unsigned n) { return delta < n - r ? r + delta : r; });
  }
  template <class T>
  __device__ static T shfl_xor(const T& v, unsigned lane_mask) {
    return exchange_value(v, [lane_mask](unsigned r, unsigned n) { return (r ^ lane_mask) < n ? r ^ lane_mask : r; });
  }

  // Each warp's word (lane 0's `word`) gathered to every member: words of
  // warps the block lacks are 0. Two syncs, as an exchange.
  __device__ static void gather_warp_words(unsigned word, unsigned (&out)[warps]) {
    unsigned* slots = wide_scratch().words;
    const unsigned base = tile_base(Size), count = tile_count(Size);
    if (lane_id() == 0) slots[block_rank()] = word;
    sync();
#pragma unroll
    for (unsigned w = 0; w < warps; ++w) out[w] = w * warp_lanes < count ? slots[base + w * warp_lanes] : 0u;
    sync();
  }

  __device__ static int any(int predicate) {
    unsigned words[warps];
    gather_warp_words(__any_sync(existing_lanes(), predicate), words);
    unsigned some = 0;
#pragma unroll
    for (unsigned w : words) some |= w;
    return some != 0;
  }
  __device__ static int all(int predicate) { return !any(!predicate); }

  __device__ static mask_type ballot(int predicate) {
    unsigned words[warps];
    gather_warp_words(__ballot_sync(existing_lanes(), predicate), words);
    mask_type m{};
#pragma unroll
    for (unsigned i = 0; i < warps / 2; ++i)
      set_mask_word(m, i, static_cast<unsigned long long>(words[2 * i + 1]) << 32 | words[2 * i]);
    return m;
  }

  // Rounds of words: a member's mask keeps the ranks equal to it in every word.
  template <class T>
  __device__ static mask_type match_any(const T& v) {
    static_assert(exchangeable<T>, "match_any compares trivially copyable types of at most 32 bytes");
    unsigned* slots = wide_scratch().words;
    const unsigned base = tile_base(Size), count = tile_count(Size), me = block_rank();
    const words_of<T> mine = to_words(v);
    mask_type same = first_ranks<mask_type>(count);
    for (unsigned i = 0; i < word_count<T>; ++i) {
      slots[me] = mine.w[i];
      sync();
      for (unsigned chunk = 0; chunk * 64 < count; ++chunk) {
        unsigned long long equal = 0;
        for (unsigned r = chunk * 64; r < count && r < chunk * 64 + 64; ++r)
          equal |= static_cast<unsigned long long>(slots[base + r] == mine.w[i]) << (r % 64);
        if constexpr (std::is_integral_v<mask_type>)
          same &= equal;
        else
          same.set_word(chunk, same.word(chunk) & equal);
      }
      sync();
    }
    return same;
  }

  template <class T>
  __device__ static mask_type match_all(const T& v, int& pred) {
    const T first = shfl(v, 0);
    const words_of<T> a = to_words(v), b = to_words(first);
    int equal = 1;
#pragma unroll
    for (unsigned i = 0; i < word_count<T>; ++i) equal &= a.w[i] == b.w[i];
    pred = all(equal);
    return pred ? first_ranks<mask_type>(tile_count(Size)) : mask_type{};
  }
};

}  // namespace cohort::detail::gpu
