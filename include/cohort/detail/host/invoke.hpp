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

#include "cohort/detail/host/fold.hpp"
#include "cohort/detail/host/groups.hpp"

namespace cohort {

namespace detail::host {
// A broadcast folds nothing: only rank 0's value counts.
struct no_operator {};
}  // namespace detail::host

template <detail::host::collective_group Group, class Fn, class... Args>
void invoke_one(const Group& group, Fn&& fn, Args&&... args) {
  group.sync();
  if (group.thread_rank() == 0) std::invoke(std::forward<Fn>(fn), std::forward<Args>(args)...);
  group.sync();
}

template <detail::host::collective_group Group, class Fn, class... Args>
auto invoke_one_broadcast(const Group& group, Fn&& fn, Args&&... args)
    -> std::remove_cvref_t<std::invoke_result_t<Fn, Args...>> {
  using R = std::remove_cvref_t<std::invoke_result_t<Fn, Args...>>;
  static_assert(detail::host::exchangeable<R>,
                "invoke_one_broadcast: the function returns a trivially copyable type of at most 32 bytes");
  group.sync();
  std::optional<R> result;
  if (group.thread_rank() == 0) result.emplace(std::invoke(std::forward<Fn>(fn), std::forward<Args>(args)...));
  detail::host::no_operator none;
  return detail::host::fold<detail::host::fold_kind::broadcast>(
      group, result ? &*result : nullptr, none, detail::host::no_target{}, std::source_location::current());
}

}  // namespace cohort
