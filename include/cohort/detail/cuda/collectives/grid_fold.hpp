// Collectives on the whole grid of a cooperative launch (beyond NVIDIA). A
// block folds its values as a block collective's first half does
// (fold.hpp), its leader publishes the block's total, one phase of the grid
// barrier waits for every block's, and warp 0 of every block folds the
// totals in block order. The totals live in the launch's grid barrier slot's
// exchange space: a slot belongs to one driver workspace, which no two
// running launches share, so concurrent cooperative kernels never meet there,
// and nothing is copied or cleared per launch (docs/cuda-backend.md). The two
// halves of the space serve alternate barrier phases (phase_parity), so a
// block still reading one phase's totals never sees the next phase's.
#pragma once

#include <cuda_runtime.h>

#include "cohort/detail/cuda/collectives/fold.hpp"
#include "cohort/detail/cuda/collectives/fold_scratch.hpp"
#include "cohort/detail/cuda/runtime/grid_barrier.hpp"
#include "cohort/groups/grid_group.hpp"

namespace cohort::detail::gpu {

// 128 KiB per half: 4096 blocks' values of 32 bytes, 32768 of 4 bytes.
inline constexpr unsigned grid_exchange_words = 32 * 1024;

// A variable template, so that only translation units that instantiate a
// grid collective carry the pool (8 MiB of device memory).
template <int = 0>
static __device__ unsigned grid_exchange_pool[barrier_pool_slots][2][grid_exchange_words];

// The block leader's view of this phase's half of the exchange space (a
// template, so that only a grid collective instantiates the pool). Where there
// is none (every slot taken by other streams' cooperative launches, or more
// blocks than the space holds values of this size, 131072 bytes a phase) it
// traps without a message, as grid.sync() does (grid_barrier.hpp's
// trap_not_cooperative: a printf in the kernel costs each of its barriers;
// measured here, the grid reduce and scan ran 2-5% faster without it, H100);
// the host's error for the trap names these causes.
template <unsigned words_per_block>
__device__ unsigned* exchange_space(const grid_barrier& b) {
  if (!b.valid()) trap_not_cooperative();
  // A grid on NVIDIA's protocol has not looked its slot up.
  const counter_line* slot = b.slot != no_slot() ? b.slot : find_slot(b.workspace, fresh_sm_id());
  if (!slot) trap_not_cooperative();
  if (dim_volume(gridDim) * words_per_block > grid_exchange_words) trap_not_cooperative();
  return grid_exchange_pool<>[slot_index(slot)][phase_parity(*b.workspace, b.slot)];
}

// Every thread of the block calls this; the leader publishes `value` as the
// block's entry if `publish`. Returns, to warp 0, the phase's entries once
// every block has published.
template <class T>
__device__ const unsigned* exchange(const grid_barrier& b, const T& value, bool publish) {
  unsigned* entries = nullptr;
  if (is_block_leader()) {
    entries = exchange_space<word_count<T>>(b);
    if (publish) put_words(entries + block_rank_in_grid() * word_count<T>, value);
  }
  b.sync();
  if (block_rank() < warp_lanes)
    entries =
        reinterpret_cast<unsigned*>(__shfl_sync(existing_lanes(), reinterpret_cast<unsigned long long>(entries), 0));
  return entries;
}

template <class T>
struct grid_view {
  maybe<T> before;  // the blocks before the caller's, folded
  T total;
};

// Warp 0: the entries folded in block order. Lane l folds a run of
// consecutive blocks, noting where the caller's block begins; the runs then
// combine in lane order with a scan over the lanes. A lane loads its run four
// entries at a time before folding them: loaded one by one, each load waited
// for the fold before it, and a run of 25 entries (792 blocks) took 25 round
// trips to L2 in every block. Measured (H100, cohort_bench_cuda_array, three
// alternating runs of each build): grid_reduce 15.3-16.2 -> 12.2-12.9 us at
// 1M floats, 36.5-37.1 -> 32.6-34.3 at 16M, 358-361 -> 354 at 256M, though
// the kernel went from 40 to 42 registers (660 blocks of 256 instead of 792).
template <class T, class Op>
__device__ grid_view<T> fold_entries(const unsigned* entries, Op& op, const T& like) {
  const unsigned blocks = static_cast<unsigned>(dim_volume(gridDim)), me = block_rank_in_grid();
  const unsigned lanes = existing_lanes(), width = __popc(lanes), lane = lane_id();
  const unsigned run = (blocks + width - 1) / width;
  const unsigned from = min(lane * run, blocks), to = min(from + run, blocks);
  maybe<T> mine{like, false}, before_me{like, false};
  const auto fold = [&](unsigned b, const T& entry) {
    if (b == me) before_me = mine;
    mine = {after(op, mine, entry), true};
  };
  unsigned b = from;
  for (; b + 4 <= to; b += 4) {
    const T e0 = get_words(entries + b * word_count<T>, like), e1 = get_words(entries + (b + 1) * word_count<T>, like),
            e2 = get_words(entries + (b + 2) * word_count<T>, like),
            e3 = get_words(entries + (b + 3) * word_count<T>, like);
    fold(b, e0);
    fold(b + 1, e1);
    fold(b + 2, e2);
    fold(b + 3, e3);
  }
  for (; b < to; ++b) fold(b, get_words(entries + b * word_count<T>, like));
  maybe<T> runs = mine;
  for (unsigned d = 1; d < width; d *= 2) {
    const maybe<T> lower{shfl_up(lanes, runs.value, d), __shfl_up_sync(lanes, runs.has ? 1 : 0, d) != 0};
    if (lane >= d) runs = join(op, lower, runs);
  }
  // Every lane must execute each shuffle (no short-circuit around one): a
  // lane that skips it leaves the others waiting for it for good.
  const bool lower_run_has = __shfl_up_sync(lanes, runs.has ? 1 : 0, 1) != 0;
  const maybe<T> runs_before{shfl_up(lanes, runs.value, 1), lane > 0 && lower_run_has};
  const maybe<T> mine_before = join(op, runs_before, before_me);
  const unsigned owner = me / run;
  return {{shfl_idx(lanes, mine_before.value, owner), __shfl_sync(lanes, mine_before.has ? 1 : 0, owner) != 0},
          shfl_idx(lanes, runs.value, width - 1)};
}

template <class T>
__device__ void put_maybe(unsigned* to, const maybe<T>& m) {
  put_words(to, m.value);
  to[value_words] = m.has;
}

template <class T>
__device__ maybe<T> get_maybe(const unsigned* from, const T& like) {
  return {get_words(from, like), from[value_words] != 0};
}

template <fold_kind Kind, class T, class Op, class Update>
__device__ T fold_grid(const grid_group& grid, const T& v, Op& op, Update& update) {
  const grid_barrier& barrier = group_access::state(grid);
  fold_scratch& s = fold_memory();
  const unsigned warp = block_rank() / warp_lanes;
  const bool grid_leader = is_block_leader() && block_rank_in_grid() == 0;

  maybe<T> previous{v, false};
  const T part = fold_own_warp<Kind>([] { __syncthreads(); }, v, op, previous);
  maybe<T> before{v, false};  // scans: the block's warps before the caller's
  if constexpr (Kind != fold_kind::reduce) before = fold_warp_values_before(0u, warp, op, v);
  T block_total = v;
  if (is_block_leader()) block_total = fold_warp_values(0u, block_span().warps, op, v);

  const unsigned* entries = exchange(barrier, block_total, true);
  if constexpr (updates<Update> && Kind == fold_kind::reduce) {
    // Only the grid's rank 0 uses the total (reduce_update_async and
    // reduce_store_async return nothing), so block 0 alone folds the blocks'
    // entries; for a total every thread gets, warp 0 of every block reads
    // them all, every block the same lines at once.
    if (block_rank_in_grid() == 0 && warp == 0) {
      const T total = fold_entries(entries, op, v).total;
      if (grid_leader) update(total);
    }
    return v;
  }
  grid_view<T> view{{v, false}, v};
  if (warp == 0) view = fold_entries(entries, op, v);
  if constexpr (updates<Update> && Kind != fold_kind::reduce) {
    // The grid's rank 0 updates the atomic; every block reads the old value from it.
    T old = v;
    if (grid_leader) old = update(view.total);
    const unsigned* olds = exchange(barrier, old, grid_leader);
    if (warp == 0) view.before = join(op, maybe<T>{get_words(olds, v), true}, view.before);
  }
  if (is_block_leader()) {
    put_maybe(s.grid[0], view.before);
    put_words(s.grid[1], view.total);
  }
  __syncthreads();
  if constexpr (Kind == fold_kind::reduce) {
    return get_words(s.grid[1], v);
  } else {
    return scan_result<Kind>(op, join(op, get_maybe(s.grid[0], v), before), part, previous);
  }
}

// invoke_one_broadcast's result, from the grid's rank 0 to every thread.
template <class R>
__device__ R broadcast_from_grid_leader(const grid_group& grid, const R& result) {
  fold_scratch& s = fold_memory();
  const unsigned* entries = exchange(group_access::state(grid), result, block_rank_in_grid() == 0);
  if (is_block_leader()) put_words(s.grid[1], get_words(entries, result));
  __syncthreads();
  return get_words(s.grid[1], result);
}

}  // namespace cohort::detail::gpu
