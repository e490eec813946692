// invoke_one and invoke_one_broadcast on the host backend, on tiles,
// coalesced groups, thread blocks and (in a cooperative launch) the grid. The
// group synchronizes, its rank 0 calls fn(args...) (the thread NVIDIA's
// implementation picks, and deterministic, though CUDA promises neither),
// and the group synchronizes again, receiving the result in the broadcast
// form. The group's syncs name this header in diagnostics: a call site can't
// be captured after a parameter pack.
#pragma once

#include <functional>
#include <optional>
#include <type_traits>

#include "cohort/host/detail/fold.hpp"
#include "cohort/host/groups.hpp"

namespace cohort {

namespace host::detail {
// A broadcast folds nothing: only rank 0's value counts.
struct no_operator {};
}  // namespace host::detail

template <host::detail::collective_group Group, class Fn, class... Args>
void invoke_one(const Group& group, Fn&& fn, Args&&... args) {
  group.sync();
  if (group.thread_rank() == 0) std::invoke(std::forward<Fn>(fn), std::forward<Args>(args)...);
  group.sync();
}

template <host::detail::collective_group Group, class Fn, class... Args>
auto invoke_one_broadcast(const Group& group, Fn&& fn, Args&&... args)
    -> std::remove_cvref_t<std::invoke_result_t<Fn, Args...>> {
  using R = std::remove_cvref_t<std::invoke_result_t<Fn, Args...>>;
  static_assert(host::detail::exchangeable<R>,
                "invoke_one_broadcast: the function returns a trivially copyable type of at most 32 bytes");
  group.sync();
  std::optional<R> result;
  if (group.thread_rank() == 0) result.emplace(std::invoke(std::forward<Fn>(fn), std::forward<Args>(args)...));
  host::detail::no_operator none;
  return host::detail::fold<host::detail::fold_kind::broadcast>(
      group, result ? &*result : nullptr, none, host::detail::no_target{}, std::source_location::current());
}

}  // namespace cohort
