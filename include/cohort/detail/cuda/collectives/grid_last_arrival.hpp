// grid_reduce(grid, in, n, out, op) with cohort's commutative operators on
// values of one or two words: every block publishes its total and counts its
// arrival on one word, and the block whose arrival completes the call folds
// the totals and stores the result. No block waits for the others, as none
// needs the total (the caller's grid.sync() is what shows it to the grid).
// Through the grid barrier instead, every block's first warp polled for the
// last arrival, block 0 saw it a poll later and only then read the totals:
// docs/measurements/2026-11-30-gpu-grid-reduce-last-arrival.md.
//
// The state lives in a pool beside the grid barrier's, one part per barrier
// slot (one slot per driver workspace, which no two running launches share),
// so nothing is copied or cleared per launch:
// - the arrival word: arrivals in bits 0..15, above them the number of calls
//   ever completed on the slot (the generation, 48 bits, which never wraps).
//   Block 0 adds 2^16 - (blocks - 1) and every other block 1, so the last
//   add of a call carries into the generation and leaves no arrivals behind
//   (NVIDIA's trick on its barrier word, one word wider), whatever the order.
// - per block, the generation of its last arrival plus one (0: none yet). A
//   block does not wait, so it may reach its next call before the last block
//   of this one has arrived, and its add would count in this call; before
//   adding, a block whose last arrival is in the word's current generation
//   waits for the generation to move on. A record left by an earlier launch
//   (with more blocks) is older than any generation the word can show then,
//   so it never makes a block wait.
// - the blocks' totals, in two halves by the generation's parity: a block
//   writes call g's total only once call g - 1 is complete, which is after
//   call g - 2's folder (who arrived at g - 1 after folding) read the same
//   half; the block's load of the word that showed it is an acquire.
#pragma once

#include <cuda/atomic>

#include "cohort/detail/cuda/collectives/grid_fold.hpp"
#include "cohort/detail/cuda/runtime/grid_barrier.hpp"

namespace cohort::detail::gpu {

// The largest grid the pool serves (an H200 holds at most 4224 blocks at
// once); a larger one traps, as a grid collective does where its values
// outgrow the exchange space. 192 KiB a slot, 6 MiB in all.
inline constexpr unsigned last_arrival_blocks = 8192;
inline constexpr unsigned arrival_count_bits = 16;

struct alignas(128) arrival_word {
  unsigned long long word;
};
struct last_arrival_state {
  arrival_word arrivals;
  unsigned long long arrived_in[last_arrival_blocks];  // generation + 1 of each block's last arrival
  alignas(16) unsigned totals[2][2 * last_arrival_blocks];
};

// A variable template, so that only translation units that instantiate the
// stored grid_reduce carry the pool.
template <int = 0>
static __device__ last_arrival_state last_arrival_pool[barrier_pool_slots];

// What the block's leader learns as the call begins, before it loads its
// share of the array: the slot's state, the generation this call will
// complete, and whether the word still showed the block's last call open
// (then the leader waits for the generation before it adds). Read there, the
// round trip overlaps the other threads' loads (and holds back the leader's:
// the word's load is an acquire); read after the block's fold, the call took
// 0.8 us more at 1M floats (H200). It waits in shared memory: held in
// registers across the loads, the bench's kernel took 46 registers, against
// 42 this way and 34 through the grid barrier
// (docs/measurements/2026-11-30-gpu-grid-reduce-last-arrival.md).
struct last_arrival_ticket {
  last_arrival_state* state;
  unsigned generation;  // its low bits: enough to see it arrive, and its parity picks the half
  bool pending;
};

__device__ inline last_arrival_ticket& ticket_memory() {
  __shared__ last_arrival_ticket ticket;
  return ticket;
}

__device__ inline void open_last_arrival(const grid_barrier& b) {
  if (!is_block_leader()) return;
  if (!b.valid()) trap_not_cooperative();
  // A grid on NVIDIA's protocol has not looked its slot up.
  const counter_line* slot = b.slot != no_slot() ? b.slot : find_slot(b.workspace, fresh_sm_id());
  if (!slot || grid_blocks() > last_arrival_blocks) trap_not_cooperative();
  last_arrival_state& s = last_arrival_pool<>[slot_index(slot)];
  const unsigned long long arrived_in =
      device_atomic<unsigned long long>(s.arrived_in[block_rank_in_grid()]).load(cuda::memory_order_relaxed);
  const unsigned long long seen = device_atomic<unsigned long long>(s.arrivals.word).load(cuda::memory_order_acquire);
  // Pending, the word is in generation arrived_in - 1, and this call's is the next.
  const bool pending = (seen >> arrival_count_bits) + 1 == arrived_in;
  ticket_memory() = {&s, static_cast<unsigned>(pending ? arrived_in : seen >> arrival_count_bits), pending};
}

// The block's fold of v, in its leader (v elsewhere).
template <class T, class Op>
__device__ T block_total_in_leader(const T& v, Op& op) {
  maybe<T> previous{v, false};
  fold_own_warp<fold_kind::reduce>([] { __syncthreads(); }, v, op, previous);
  return is_block_leader() ? fold_warp_values(0u, block_span().warps, op, v) : v;
}

// Every thread of the block calls this with its share `v` of the total, after open_last_arrival.
template <class T, class Op>
__device__ void store_grid_total_any_order(T* out, const T& v, Op op, const T& identity) {
  static_assert(word_count<T> == 1 || word_count<T> == 2, "totals of one or two words");
  constexpr unsigned per_vector = 4 / word_count<T>;
  const T block_total = block_total_in_leader(v, op);
  __shared__ const unsigned* folding;  // the totals the block folds: null but in the last block
  if (is_block_leader()) {
    const last_arrival_ticket ticket = ticket_memory();
    last_arrival_state& s = *ticket.state;
    device_atomic<unsigned long long> word(s.arrivals.word);
    if (ticket.pending)
      while (static_cast<unsigned>(word.load(cuda::memory_order_acquire) >> arrival_count_bits) != ticket.generation) {
      }
    const unsigned me = block_rank_in_grid();
    unsigned* const totals = s.totals[ticket.generation & 1];
    put_words(totals + me * word_count<T>, block_total);
    const unsigned long long add = me == 0 ? (1ull << arrival_count_bits) - (grid_blocks() - 1) : 1ull;
    const unsigned long long before = word.fetch_add(add, cuda::memory_order_acq_rel);
    device_atomic<unsigned long long>(s.arrived_in[me])
        .store((before >> arrival_count_bits) + 1, cuda::memory_order_relaxed);
    const bool last = (before + add) >> arrival_count_bits != before >> arrival_count_bits;
    folding = last ? totals : nullptr;
  }
  __syncthreads();
  const uint4* totals = reinterpret_cast<const uint4*>(folding);
  if (!totals) return;
  // The last block: every thread folds 16-byte vectors of the totals, two a
  // pass in flight (1056 blocks of 256 threads, the largest grid of a kernel
  // of 32 registers, have 264 vectors of floats), and the block meets in its
  // fold; its leader stores the result.
  const unsigned blocks = grid_blocks(), vectors = (blocks + per_vector - 1) / per_vector;
  T acc = identity;
  const auto fold_vector = [&](unsigned i, const uint4& loaded) {
    const unsigned words[4] = {loaded.x, loaded.y, loaded.z, loaded.w};
#pragma unroll
    for (unsigned e = 0; e < per_vector; ++e) {
      words_of<T> w;
#pragma unroll
      for (unsigned k = 0; k < word_count<T>; ++k) w.w[k] = words[e * word_count<T> + k];
      if (i * per_vector + e < blocks) acc = op(acc, from_words(w, identity));
    }
  };
  const unsigned threads = block_threads();
  for (unsigned i = block_rank(); i < vectors; i += 2 * threads) {
    const uint4 first = totals[i];
    const bool second = i + threads < vectors;
    const uint4 next = second ? totals[i + threads] : uint4{};
    fold_vector(i, first);
    if (second) fold_vector(i + threads, next);
  }
  const T total = block_total_in_leader(acc, op);
  if (is_block_leader()) *out = total;
  // The leader read the warps' values after the block's last sync, and the
  // next collective's warps write theirs before its first (racecheck).
  __syncthreads();
}

}  // namespace cohort::detail::gpu
