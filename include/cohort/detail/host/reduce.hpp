// The fold primitives of the host backend, behind reduce, the scans and the
// *_update forms, on tiles of every size, coalesced groups, thread blocks and
// (in a cooperative launch) the grid: the values fold in rank order at the
// group's rendezvous (fold.hpp); the operator and the atomic or pointer used
// are rank 0's, and every member must pass the same atomic or pointer.
#pragma once

#include <type_traits>

#include "cohort/detail/host/collectives/fold.hpp"
#include "cohort/detail/host/collectives/tile_fold.hpp"

namespace cohort::detail::host {

// Each member's result of the fold `Kind` (the total, or its prefix).
// A tile of 32 or fewer with a stateless operator: on the loops engine, on
// the block's lane arrays (tile_fold.hpp).
template <fold_kind Kind, class Group, class T, class Op>
T fold_value(const Group& group, const T& val, Op& op, call_site where) {
  const T v = val;
  using op_type = std::remove_cv_t<Op>;
  if constexpr (folds_on_lane_arrays<Kind, Group, T, op_type>) {
    const fold_params<Op, no_target> params{&op, {}};
    return tile_fold<T>(tile_kind::fold, tile_size_of<std::remove_cvref_t<Group>>, &fold_tile_lanes<Kind, T, op_type>,
                        v, fold_op<Kind, T, Op, no_target, in_block>, where, &params);
  } else {
    return fold<Kind>(group, &v, op, no_target{}, where);
  }
}

// The same, the group's total also combined into `atomic` by one member: op(old, total).
template <fold_kind Kind, class Group, class A, class T, class Op>
T fold_update(const Group& group, A& atomic, const T& val, Op& op, call_site where) {
  const T v = val;
  return fold<Kind>(group, &v, op, atomic_update_target<A>{&atomic}, where);
}

template <class Group, class A, class T, class Op>
void reduce_store_atomic(const Group& group, A& atomic, const T& val, Op& op, call_site where) {
  const T v = val;
  fold<fold_kind::reduce>(group, &v, op, atomic_store_target<A>{&atomic}, where);
}

template <class Group, class T, class Op>
void reduce_store_pointer(const Group& group, T* ptr, const T& val, Op& op, call_site where) {
  const T v = val;
  fold<fold_kind::reduce>(group, &v, op, pointer_store_target<T>{ptr}, where);
}

}  // namespace cohort::detail::host
