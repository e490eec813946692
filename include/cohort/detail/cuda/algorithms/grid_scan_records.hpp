// The tile records of grid_*_scan's look-back inside a user's cooperative
// kernel (grid_look_back_scan.hpp), which has no scratch of its own: they
// live in a static pool beside the grid barrier's, one part per barrier slot
// (one slot per driver workspace, so no two running launches share one).
//
// Block b scans tiles b, b + G, b + 2G, ... (G blocks, round r = tile / G),
// and its look-back never reads further back than the G - 1 tiles before its
// own: it holds the inclusive total of its previous tile, G tiles back. So a
// record is needed only by the tiles of its round and of the next, and three
// records per block, used in turn (round r in record r % 3), suffice: a block
// overwrites round r's record when it publishes round r + 3, which needs
// round r + 2's prefix, which needs the aggregates of the G - 1 tiles before
// it, and each of those blocks publishes its aggregate only once it has
// finished with every record of round r and r - 1 (docs/algorithms.md has
// the argument in full).
//
// A record counts only when it carries its round's epoch: each call takes a
// fresh run of epochs, one per round, from the slot's counter, so nothing is
// cleared between calls or launches. Block 0 takes them and hands them to
// every block through the grid barrier's exchange space, while the blocks'
// first loads are in flight. When the 31-bit epochs run out, every block
// clears its share of the slot's records behind one more grid barrier and
// the epochs start again at 1.
//
// A record is one 64-byte line, all of them with the same header at the
// line's start whatever T is, so that a record left by a call with another
// type never reads as this call's: the epoch tag in the high half, and a
// value of at most 4 bytes in the low half (one store); a larger value has
// two slots of 32-bit words in the line (aggregate and inclusive apart, so a
// reader who saw "aggregate" never reads a half-overwritten value), written
// before the header, which is stored with release semantics. Lines 64 bytes
// apart measured within 2% of 128 for the device scan's records (their
// neighbours are written by other SMs and polled by the look-backs after
// them), packed 8-byte ones 15-19% slower (docs/algorithms.md); here 128
// measured alike (0.84-0.89x CUB's speed at 16M ints against 0.84-0.85x).
#pragma once

#include <cuda/atomic>

#include <cstddef>

#include "cohort/detail/cuda/algorithms/array_scratch.hpp"
#include "cohort/detail/cuda/algorithms/tile_status.hpp"
#include "cohort/detail/cuda/collectives/grid_fold.hpp"
#include "cohort/detail/cuda/runtime/grid_barrier.hpp"
#include "cohort/detail/cuda/tiles/words.hpp"

namespace cohort::detail::gpu {

inline constexpr unsigned grid_record_rounds = 3;
// Records per slot: up to 1365 blocks scan tiles (1056 blocks of 256 threads
// fill an H200 at 8 an SM); in larger grids the others wait. 256 KiB per
// slot, 8 MiB in all, as the exchange pool.
inline constexpr unsigned grid_record_lines = 4096;

struct alignas(64) grid_record_line {
  unsigned long long header;
  unsigned words[14];  // values of more than 4 bytes: aggregate in 0..6, inclusive in 7..13
};

// Variable templates, so that only translation units with a grid scan carry them.
template <int = 0>
static __device__ grid_record_line grid_record_pool[barrier_pool_slots][grid_record_lines];
// The last epoch each slot gave out (0: none yet).
template <int = 0>
static __device__ unsigned grid_record_epochs[barrier_pool_slots];

template <class T>
struct grid_records {
  static_assert(word_count<T> <= 7, "a grid scan record holds values of up to 28 bytes");

  grid_record_line* lines;  // the slot's
  unsigned blocks;
  unsigned epoch0;  // round r's epoch is epoch0 + r

  __device__ grid_record_line& line(unsigned round, unsigned block) const {
    return lines[(round % grid_record_rounds) * blocks + block];
  }
  __device__ unsigned long long tag(unsigned round, bool inclusive) const {
    return static_cast<unsigned long long>((epoch0 + round) << 1 | (inclusive ? 1u : 0u)) << 32;
  }

  __device__ void publish(unsigned round, unsigned block, const T& value, bool inclusive) const {
    grid_record_line& l = line(round, block);
    if constexpr (packed_status<T>) {
      unsigned long long word = tag(round, inclusive) | to_words(value).w[0];
      cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(l.header).store(word, cuda::memory_order_relaxed);
    } else {
      const words_of<T> w = to_words(value);
      unsigned* slot = l.words + (inclusive ? 7 : 0);
#pragma unroll
      for (unsigned i = 0; i < word_count<T>; ++i) slot[i] = w.w[i];
      cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(l.header).store(tag(round, inclusive),
                                                                                      cuda::memory_order_release);
    }
  }

  // Tile `tile`'s record, of round `round`.
  __device__ tile_record<T> read(unsigned round, unsigned block, const T& like) const {
    grid_record_line& l = line(round, block);
    tile_record<T> r{false, false, like};
    const cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> header(l.header);
    const unsigned long long word =
        header.load(packed_status<T> ? cuda::memory_order_relaxed : cuda::memory_order_acquire);
    const unsigned t = static_cast<unsigned>(word >> 32);
    r.ready = t >> 1 == epoch0 + round;
    r.inclusive = t & 1;
    if constexpr (packed_status<T>) {
      words_of<T> w;
      w.w[0] = static_cast<unsigned>(word);
      r.value = from_words(w, like);
    } else if (r.ready) {
      // Written by another SM in this launch: read past L1.
      const unsigned* slot = l.words + (r.inclusive ? 7 : 0);
      words_of<T> w;
#pragma unroll
      for (unsigned i = 0; i < word_count<T>; ++i) w.w[i] = __ldcg(slot + i);
      r.value = from_words(w, like);
    }
    return r;
  }
};

// Every thread of the grid calls this at the start of a scan of `rounds`
// rounds (rounds < last_epoch); while_waiting() runs between the block's
// arrival at the grid barrier and its wait, so that the first tile's loads
// overlap the barrier; the first `scanning_blocks` blocks scan tiles
// (3 records each must fit in grid_record_lines).
template <class T, class WhileWaiting>
__device__ grid_records<T> open_grid_records(const grid_barrier& b, unsigned scanning_blocks, unsigned rounds,
                                             WhileWaiting&& while_waiting) {
  __shared__ unsigned slot_of_block;
  __shared__ const unsigned* handed_over;
  const unsigned blocks = grid_blocks();
  if (is_block_leader()) {
    unsigned* entries = exchange_space<1>(b);
    const counter_line* slot = b.slot != no_slot() ? b.slot : find_slot(b.workspace, fresh_sm_id());
    const unsigned index = slot_index(slot);  // exchange_space trapped if there is none
    if (block_rank_in_grid() == 0) {
      const cuda::atomic_ref<unsigned, cuda::thread_scope_device> last(grid_record_epochs<>[index]);
      const unsigned before = last.load(cuda::memory_order_relaxed);
      const bool restart = before > last_epoch - rounds;
      const unsigned first = restart ? 1u : before + 1;
      last.store(first + rounds - 1, cuda::memory_order_relaxed);
      entries[0] = first | (restart ? 0x80000000u : 0u);
    }
    slot_of_block = index;
    handed_over = entries;
  }
  const grid_arrival arrival = b.arrive();
  while_waiting();
  b.wait(arrival);
  const unsigned word = __ldcg(handed_over);
  grid_record_line* const lines = grid_record_pool<>[slot_of_block];
  // Before the leader, with no block barrier ahead of it, overwrites them in
  // the next call.
  __syncthreads();
  if (word & 0x80000000u) {
    // The epochs start again: no record of an earlier call may still match.
    for (unsigned i = block_rank_in_grid() * blockDim.x + threadIdx.x; i < grid_record_lines; i += blocks * blockDim.x)
      lines[i].header = 0;
    b.sync();
  }
  return {lines, scanning_blocks, word & 0x7FFFFFFFu};
}

}  // namespace cohort::detail::gpu
