// reduce, the scans and invoke_one on a cluster_group (beyond NVIDIA, which
// has none on clusters): each block folds its own values, its leader
// publishes the block's total in the block's shared memory, and after a
// cluster barrier every thread reads the cluster's totals through
// distributed shared memory (mapa) and folds them in block-rank order. A
// last cluster barrier keeps every block's total in place until all have read it.
#pragma once

#include <cuda_runtime.h>

#include <type_traits>

#include "cohort/detail/cuda/cluster.hpp"
#include "cohort/detail/cuda/collectives/fold.hpp"
#include "cohort/detail/cuda/collectives/fold_scratch.hpp"
#include "cohort/detail/cuda/collectives/group_fold.hpp"
#include "cohort/groups/cluster_group.hpp"
#include "cohort/groups/thread_block.hpp"

namespace cohort::detail::gpu {

template <>
inline constexpr bool is_collective_group<cluster_group> = true;

// Block `rank`'s published words (its fold scratch's `grid[which]`).
__device__ __forceinline__ const unsigned* cluster_words(unsigned which, unsigned rank) {
  return static_cast<const unsigned*>(map_shared(fold_memory().grid[which], static_cast<int>(rank), {}));
}

template <fold_kind Kind, class T, class Op, class Update>
__device__ T fold(const cluster_group&, const T& v, Op& op, Update& update) {
  no_update none;
  const thread_block block = this_thread_block();
  const T block_total = fold_warps<fold_kind::reduce>(block_span(), broadcast_area(1024, 0), block_sync{}, v, op, none);
  T in_block = block_total;
  if constexpr (Kind != fold_kind::reduce)
    in_block = fold_warps<Kind>(block_span(), broadcast_area(1024, 0), block_sync{}, v, op, none);
  const bool leader = block.thread_rank() == 0;
  if (leader) put_words(fold_memory().grid[0], block_total);
  cluster_sync({});
  const unsigned me = cluster_block_rank(), blocks = cluster_block_count();
  maybe<T> before{v, false}, all{v, false};
  for (unsigned b = 0; b < blocks; ++b) {
    if (b == me) before = all;
    all = {after(op, all, get_words(cluster_words(0, b), v)), true};
  }
  const bool cluster_leader = leader && me == 0;
  if constexpr (updates<Update>) {
    if constexpr (Kind == fold_kind::reduce) {
      if (cluster_leader) update(all.value);
    } else {
      // The scans start from the atomic's old value, which block 0 publishes.
      if (cluster_leader) put_words(fold_memory().grid[1], update(all.value));
      cluster_sync({});
      before = join(op, maybe<T>{get_words(cluster_words(1, 0), v), true}, before);
    }
  }
  cluster_sync({});
  if constexpr (Kind == fold_kind::reduce) {
    return all.value;
  } else if constexpr (Kind == fold_kind::inclusive_scan) {
    return after(op, before, in_block);
  } else {
    // The block's rank 0 has no prefix within the block: its result is the blocks' before it.
    if (block.thread_rank() == 0) return before.has ? before.value : in_block;
    return after(op, before, in_block);
  }
}

template <class Call>
__device__ std::invoke_result_t<Call&> invoke_once(const cluster_group& g, Call& call) {
  using R = std::invoke_result_t<Call&>;
  cluster_sync({});
  const bool caller = g.thread_rank() == 0;
  if constexpr (std::is_void_v<R>) {
    if (caller) call();
    cluster_sync({});
  } else {
    R result{};
    if (caller) put_words(fold_memory().grid[1], result = call());
    cluster_sync({});
    result = get_words(cluster_words(1, 0), result);
    cluster_sync({});
    return result;
  }
}

}  // namespace cohort::detail::gpu
