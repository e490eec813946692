// The primitive behind invoke_one and invoke_one_broadcast on the host
// backend, invoke_once(group, call), on tiles, coalesced groups, thread blocks
// and (in a cooperative launch) the grid. The group synchronizes, its rank 0
// calls (the thread NVIDIA's implementation picks, and deterministic, though
// CUDA promises neither), and the group synchronizes again, receiving the
// result through a broadcast fold. The group's syncs name this header in
// diagnostics: a call site can't be captured after a parameter pack.
#pragma once

#include <optional>
#include <source_location>
#include <type_traits>

#include "cohort/detail/host/collectives/fold.hpp"

namespace cohort::detail::host {

// A broadcast folds nothing: only rank 0's value counts.
struct no_operator {};

template <class Group, class Call>
std::invoke_result_t<Call&> invoke_once(const Group& group, Call& call) {
  using R = std::invoke_result_t<Call&>;
  group.sync();
  if constexpr (std::is_void_v<R>) {
    if (group.thread_rank() == 0) call();
    group.sync();
  } else {
    std::optional<R> result;
    if (group.thread_rank() == 0) result.emplace(call());
    no_operator none;
    return fold<fold_kind::broadcast>(group, result ? &*result : nullptr, none, no_target{},
                                      std::source_location::current());
  }
}

}  // namespace cohort::detail::host
