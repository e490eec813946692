// The one collective behind reduce, the scans and their *_update / *_store
// forms, for groups inside a warp and for groups of whole warps (a block, a
// tile wider than a warp). Values fold in rank order (docs/collectives.md);
// what each member gets back is the fold_kind, and where the total goes
// besides is the `update`: a callable that exactly one member runs with the
// group's total and that returns what precedes rank 0 in the *_update scans
// (the atomic's old value), or no_update.
//
// Groups of whole warps: each warp folds its own values (warp_fold.hpp), one
// lane per warp writes the warp's value to shared memory (fold_scratch.hpp),
// the group synchronizes, and the warp values are folded in order (at most
// 32): for a reduction by the first warp (one redux.sync, or a tree of
// shuffles), whose rank 0 publishes the total, as CUB's block reduction does;
// for a scan by every thread, over the warps before its own.
// A second sync frees the scratch for the next collective and carries the
// published value (the total, or in the *_update scans the atomic's old
// value) to every member.
#pragma once

#include <cuda_runtime.h>

#include <type_traits>

#include "cohort/collectives/functional.hpp"
#include "cohort/detail/cuda/collectives/fold_scratch.hpp"
#include "cohort/detail/cuda/collectives/operators.hpp"
#include "cohort/detail/cuda/collectives/warp_fold.hpp"
#include "cohort/detail/cuda/tiles/tile_geometry.hpp"

namespace cohort::detail::gpu {

enum class fold_kind : unsigned char {
  reduce,          // everyone: the total
  inclusive_scan,  // rank r: v0 op ... op vr
  exclusive_scan,  // rank r: v0 op ... op v(r-1); rank 0: the operator's identity
};

struct no_update {};

template <class Update>
inline constexpr bool updates = !std::is_same_v<Update, no_update>;

// A scan's result from its parts: what precedes the caller's fold scope
// (`before`), the caller's inclusive value within it, and for an exclusive
// scan the inclusive value of the rank before it there.
template <fold_kind Kind, class T, class Op>
__device__ __forceinline__ T scan_result(Op& op, const maybe<T>& before, const T& inclusive, const maybe<T>& previous) {
  if constexpr (Kind == fold_kind::inclusive_scan) {
    return after(op, before, inclusive);
  } else {
    const maybe<T> exclusive = join(op, before, previous);
    return exclusive.has ? exclusive.value : cohort::detail::identity_of<std::remove_cv_t<Op>, T>();
  }
}

// A tile of Size <= 32 threads.
template <fold_kind Kind, unsigned Size, class T, class Op, class Update>
__device__ T fold_segment(const segment& s, const T& v, Op& op, Update& update) {
  if constexpr (Kind == fold_kind::reduce) {
    const T total = segment_reduce<Size>(s, v, op);
    if constexpr (updates<Update>)
      if (s.rank == 0) update(total);
    return total;
  } else {
    const T inclusive = segment_scan<Size>(s, v, op);
    maybe<T> before{v, false}, previous{v, false};
    if constexpr (Kind == fold_kind::exclusive_scan) previous = segment_previous<Size>(s, inclusive);
    if constexpr (updates<Update>) {
      // The last member holds the total: it updates, and everyone reads the old value from it.
      T old = v;
      if (s.rank == s.count - 1) old = update(inclusive);
      before = {shfl_idx<Size>(s.lanes, old, s.count - 1), true};
    }
    return scan_result<Kind>(op, before, inclusive, previous);
  }
}

// A coalesced group.
template <fold_kind Kind, class T, class Op, class Update>
__device__ T fold_coalesced(unsigned lanes, const T& v, Op& op, Update& update) {
  if constexpr (Kind == fold_kind::reduce) {
    const T total = coalesced_reduce(lanes, v, op);
    if constexpr (updates<Update>)
      if ((lanes & lanes_below()) == 0) update(total);
    return total;
  } else {
    const T inclusive = coalesced_scan(lanes, v, op);
    maybe<T> before{v, false}, previous{v, false};
    if constexpr (Kind == fold_kind::exclusive_scan) previous = coalesced_previous(lanes, inclusive);
    if constexpr (updates<Update>) {
      const unsigned last = 31 - __clz(static_cast<int>(lanes));
      T old = v;
      if (lane_id() == last) old = update(inclusive);
      before = {shfl_idx(lanes, old, last), true};
    }
    return scan_result<Kind>(op, before, inclusive, previous);
  }
}

// A group of whole warps: a block, or a tile wider than a warp.
struct warp_span {
  unsigned first_warp;  // block-level index of its first warp
  unsigned warps;
  unsigned count;  // threads
  unsigned rank;   // the caller's
};

__device__ __forceinline__ warp_span block_span() {
  const unsigned threads = block_threads();
  return {0, (threads + warp_lanes - 1) / warp_lanes, threads, block_rank()};
}

__device__ __forceinline__ warp_span tile_span(unsigned n) {
  const unsigned base = tile_base(n), count = tile_count(n);
  return {base / warp_lanes, (count + warp_lanes - 1) / warp_lanes, count, block_rank() - base};
}

// The warps' values of the span's warps [from, to), at least one, folded in
// order (a scan's prefix of warps, a grid collective's block total). They are
// loaded a batch at a time, so that the loads overlap instead of each waiting
// for the fold before it.
inline constexpr unsigned warp_value_batch = 8;

template <class T, class Op>
__device__ T fold_warp_values(unsigned from, unsigned to, Op& op, const T& like) {
  const fold_scratch& s = fold_memory();
  T acc = get_words(s.totals[from], like);
  for (unsigned first = from + 1; first < to; first += warp_value_batch) {
    words_of<T> batch[warp_value_batch];
#pragma unroll
    for (unsigned k = 0; k < warp_value_batch; ++k)
      if (first + k < to)
#pragma unroll
        for (unsigned i = 0; i < word_count<T>; ++i) batch[k].w[i] = s.totals[first + k][i];
#pragma unroll
    for (unsigned k = 0; k < warp_value_batch; ++k)
      if (first + k < to) acc = op(acc, from_words(batch[k], like));
  }
  return acc;
}

// The same over a range that may be empty (the warps before the caller's).
template <class T, class Op>
__device__ maybe<T> fold_warp_values_before(unsigned from, unsigned to, Op& op, const T& like) {
  if (from == to) return {like, false};
  return {fold_warp_values(from, to, op, like), true};
}

// The first half of a collective of whole warps: each warp folds, one lane
// per warp publishes, the group syncs. Returns the caller's warp-level value
// (a reduction's warp total, or the inclusive scan within the warp) and, for
// an exclusive scan, the warp-level value of the rank before.
template <fold_kind Kind, class T, class Op, class Sync>
__device__ T fold_own_warp(const Sync& sync, const T& v, Op& op, maybe<T>& previous) {
  const segment warp = tile_segment<warp_lanes>();
  const T part = [&] {
    if constexpr (Kind == fold_kind::reduce)
      return segment_reduce<warp_lanes>(warp, v, op);
    else
      return segment_scan<warp_lanes>(warp, v, op);
  }();
  if constexpr (Kind == fold_kind::exclusive_scan) previous = segment_previous<warp_lanes>(warp, part);
  const unsigned publisher = Kind == fold_kind::reduce ? 0 : warp.count - 1;
  if (warp.rank == publisher) put_words(fold_memory().totals[block_rank() / warp_lanes], part);
  sync();
  return part;
}

template <fold_kind Kind, class T, class Op, class Sync, class Update>
__device__ T fold_warps(const warp_span& g, unsigned* broadcast, const Sync& sync, const T& v, Op& op, Update& update) {
  maybe<T> previous{v, false};
  const T part = fold_own_warp<Kind>(sync, v, op, previous);
  if constexpr (Kind == fold_kind::reduce) {
    // The first warp folds the warps' values and rank 0 publishes the total
    // for the others to read after the second sync, as CUB's block reduction
    // does: every thread folding them itself issued warps-times the
    // shared-memory loads, 1.95x CUB's time on a full H200.
    const auto publish = [&](const T& total) {
      put_words(broadcast, total);
      if constexpr (updates<Update>) update(total);
    };
#if __CUDA_ARCH__ >= 800
    if constexpr (has_redux<std::remove_cv_t<Op>, T>) {
      // One redux.sync over the warps' values, one per lane of the first warp
      // (ranks below g.warps <= 32 are its lanes): one load and one
      // instruction instead of a fold of g.warps loads.
      if (g.rank < g.warps) {
        const T total =
            redux<std::remove_cv_t<Op>>(low_bits(g.warps), get_words(fold_memory().totals[g.first_warp + g.rank], v));
        if (g.rank == 0) publish(total);
      }
    } else
#endif
    {
      // A tree over the first warp's lanes, one warp value each, nearest
      // runs first (lane r joins the run starting at r + m to its own), so
      // values stay in rank order: ceil(log2(warps)) shuffles, where a
      // sequential fold by one thread issued a predicated load and op per
      // warp (1.29x CUB's time for float on a full H200). With two warps or
      // more the first warp is whole, so every lane takes part in the shuffles.
      if (g.rank < warp_lanes) {
        const unsigned last = g.warps - 1;
        T x = get_words(fold_memory().totals[g.first_warp + (g.rank < last ? g.rank : last)], v);
        // Unrolled, with a uniform exit: the rolled loop's shuffle by a
        // register offset and loop control measured 1.17x CUB for float,
        // this form 1.03x (cohort_bench_cuda_warp, H200, blocks of 256).
#pragma unroll
        for (unsigned m = 1; m < warp_lanes; m *= 2) {
          if (m >= g.warps) break;
          const T other = shfl_down(all_lanes, x, m);
          if ((g.rank & (2 * m - 1)) == 0 && g.rank + m < g.warps) x = op(x, other);
        }
        if (g.rank == 0) publish(x);
      }
    }
    sync();
    return get_words(broadcast, v);
  } else {
    maybe<T> before = fold_warp_values_before(g.first_warp, block_rank() / warp_lanes, op, v);
    if constexpr (updates<Update>) {
      // The last thread's inclusive value closes the group's total.
      if (g.rank == g.count - 1) put_words(broadcast, update(after(op, before, part)));
      sync();
      before = join(op, maybe<T>{get_words(broadcast, v), true}, before);
    } else {
      sync();
    }
    return scan_result<Kind>(op, before, part, previous);
  }
}

}  // namespace cohort::detail::gpu
