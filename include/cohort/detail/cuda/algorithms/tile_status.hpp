// The decoupled look-back's record of each tile of a single-pass scan: the
// tile's own total once it is known ("aggregate"), then the total of every
// element up to its end ("inclusive"). A record counts only when it carries
// the launch's epoch, so the array needs no clearing between launches (the
// host gives each launch on a scratch buffer the next epoch).
//
// Each record has an L2 line (128 bytes) of its own. Packed 8 to a line, as
// one 64-bit word each, the records of neighbouring tiles, written by
// different SMs and polled by the look-back warps of the tiles after them,
// cost the scan 15-19% at 16M-64M ints on an H100 (32 bytes apart: 4%;
// docs/algorithms.md); 128 bytes a tile of 14 KB is under 1% of the array.
//
// Values of at most 4 bytes share one 64-bit word with their flag and are
// published with one store. Larger values have their own slots in the line
// (aggregate and inclusive apart, so that a reader that saw "aggregate"
// never reads a half-overwritten value), written before the flag, which is
// stored with release semantics.
#pragma once

#include <cuda/atomic>

#include <cstddef>
#include <cstring>

#include "cohort/detail/cuda/tiles/lanes.hpp"
#include "cohort/detail/cuda/tiles/shuffle.hpp"

namespace cohort::detail::gpu {

template <class T>
inline constexpr bool packed_status = sizeof(T) <= 4;

inline constexpr std::size_t tile_record_bytes = 128;

template <class T>
struct tile_record {
  bool ready;
  bool inclusive;
  T value;
};

template <class T>
struct tile_status {
  // A line: the flag (or the packed word) first, then the two value slots.
  static constexpr std::size_t value_offset = 32;
  static_assert(sizeof(T) <= value_offset && alignof(T) <= value_offset && 3 * value_offset <= tile_record_bytes);

  void* base;
  std::size_t tiles;
  unsigned epoch;  // 1 .. 2^31 - 1

  static std::size_t bytes(std::size_t tiles) { return tiles * tile_record_bytes; }

  __device__ unsigned tag(bool inclusive) const { return epoch << 1 | (inclusive ? 1u : 0u); }

  __device__ void publish(std::size_t tile, const T& value, bool inclusive) const {
    if constexpr (packed_status<T>) {
      unsigned bits = 0;
      std::memcpy(&bits, &value, sizeof(T));
      const unsigned long long word = static_cast<unsigned long long>(tag(inclusive)) << 32 | bits;
      cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(*line<unsigned long long>(tile))
          .store(word, cuda::memory_order_relaxed);
    } else {
      *value_slot(tile, inclusive) = value;
      cuda::atomic_ref<unsigned, cuda::thread_scope_device>(*line<unsigned>(tile))
          .store(tag(inclusive), cuda::memory_order_release);
    }
  }

  __device__ tile_record<T> read(std::size_t tile) const {
    tile_record<T> r{false, false, T{}};
    if constexpr (packed_status<T>) {
      const unsigned long long word =
          cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(*line<unsigned long long>(tile))
              .load(cuda::memory_order_relaxed);
      const unsigned t = static_cast<unsigned>(word >> 32), bits = static_cast<unsigned>(word);
      r.ready = t >> 1 == epoch;
      r.inclusive = t & 1;
      std::memcpy(&r.value, &bits, sizeof(T));
    } else {
      const unsigned t =
          cuda::atomic_ref<unsigned, cuda::thread_scope_device>(*line<unsigned>(tile)).load(cuda::memory_order_acquire);
      r.ready = t >> 1 == epoch;
      r.inclusive = t & 1;
      if (r.ready) r.value = load_from_l2(value_slot(tile, r.inclusive));
    }
    return r;
  }

 private:
  template <class W>
  __device__ W* line(std::size_t tile) const {
    return reinterpret_cast<W*>(static_cast<char*>(base) + tile * tile_record_bytes);
  }
  __device__ T* value_slot(std::size_t tile, bool inclusive) const {
    return reinterpret_cast<T*>(line<char>(tile) + (inclusive ? 2 : 1) * value_offset);
  }

  // A value written by another block in this launch: read past L1, which
  // is not coherent with other SMs' writes.
  __device__ static T load_from_l2(const T* p) {
    T v;
    if constexpr (sizeof(T) % 4 == 0 && alignof(T) >= 4) {
      unsigned w[sizeof(T) / 4];
      for (unsigned i = 0; i < sizeof(T) / 4; ++i) w[i] = __ldcg(reinterpret_cast<const unsigned*>(p) + i);
      std::memcpy(&v, w, sizeof(T));
    } else {
      unsigned char b[sizeof(T)];
      for (unsigned i = 0; i < sizeof(T); ++i) b[i] = reinterpret_cast<const volatile unsigned char*>(p)[i];
      std::memcpy(&v, b, sizeof(T));
    }
    return v;
  }
};

// Windows of 32 records that the look-back reads at once: the inclusive
// totals advance by up to this many windows per round trip to L2. One window
// measured fastest (2 alike or slower, 4, 8 and 16 each slower than the last:
// the polls are themselves load, docs/algorithms.md), and a pause between
// polls of records not yet written helps: the polls share L2 with the tiles'
// own loads. With records a line apart, 300 to 2000 ns measured alike
// (1.23-1.25x CUB's speed at 16M ints, H100); 128 ns had cost 5% before.
inline constexpr unsigned look_back_windows = 1;
inline constexpr unsigned look_back_pause_ns = 1000;

// The prefix of everything before `tile` (tile > 0), found by one warp of the
// tile's block: Windows x 32 predecessors at a time (lane l of window w reads
// tile - 1 - 32w - l), nearest first, until one has its inclusive total; the
// aggregates after it are folded in index order.
template <unsigned Windows = look_back_windows, class T, class Op>
__device__ T look_back(const tile_status<T>& status, std::size_t tile, Op op) {
  const unsigned lane = lane_id();
  T prefix{};
  bool have = false;
  for (long long end = static_cast<long long>(tile);; end -= 32 * Windows) {
    tile_record<T> r[Windows];
#pragma unroll
    for (unsigned w = 0; w < Windows; ++w) r[w] = {false, false, T{}};
    for (;;) {
      bool waiting = false;
#pragma unroll
      for (unsigned w = 0; w < Windows; ++w) {
        const long long index = end - 1 - static_cast<long long>(lane + 32 * w);
        if (index < 0)
          r[w].ready = true;  // before the array: tile 0, always inclusive, stops the fold first
        else if (!r[w].ready)
          r[w] = status.read(static_cast<std::size_t>(index));
        waiting |= !r[w].ready;
      }
      if (!__any_sync(all_lanes, waiting)) break;
      __nanosleep(look_back_pause_ns);
    }
#pragma unroll
    for (unsigned w = 0; w < Windows; ++w) {
      const unsigned inclusive = __ballot_sync(all_lanes, r[w].inclusive);
      const unsigned stop = inclusive ? __ffs(inclusive) - 1 : 31;
      T v = r[w].value;
#pragma unroll
      for (unsigned d = 1; d < 32; d *= 2) {
        const T older = shfl_down(all_lanes, v, d);
        if (lane + d <= stop) v = op(older, v);
      }
      const T window = shfl_idx(all_lanes, v, 0);
      prefix = have ? op(window, prefix) : window;
      have = true;
      if (inclusive) return prefix;
    }
  }
}

}  // namespace cohort::detail::gpu
