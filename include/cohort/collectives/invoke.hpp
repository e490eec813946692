// invoke_one and invoke_one_broadcast on every group (docs/collectives.md),
// written once over the backend's invoke_once(group, call)
// (detail/<backend>/invoke.hpp): the function runs once, after every member
// has arrived and before any leaves; the broadcast form hands its result to
// every member. They take no call_site: it can't follow a parameter pack.
#pragma once

#include <type_traits>
#include <utility>

#include "cohort/backend.hpp"

#include COHORT_BACKEND_HEADER(invoke.hpp)

namespace cohort {

template <detail::impl::collective_group Group, class Fn, class... Args>
COHORT_DEVICE void invoke_one(const Group& group, Fn&& fn, Args&&... args) {
  auto call = [&] { std::forward<Fn>(fn)(std::forward<Args>(args)...); };
  detail::impl::invoke_once(group, call);
}

template <detail::impl::collective_group Group, class Fn, class... Args>
COHORT_DEVICE auto invoke_one_broadcast(const Group& group, Fn&& fn, Args&&... args)
    -> std::remove_cvref_t<std::invoke_result_t<Fn, Args...>> {
  using R = std::remove_cvref_t<std::invoke_result_t<Fn, Args...>>;
  static_assert(!std::is_void_v<R>, "invoke_one_broadcast: the function must return a value (use invoke_one)");
  static_assert(detail::impl::exchangeable<R>,
                "invoke_one_broadcast: the function returns a trivially copyable type of at most 32 bytes");
  auto call = [&]() -> R { return std::forward<Fn>(fn)(std::forward<Args>(args)...); };
  return detail::impl::invoke_once(group, call);
}

}  // namespace cohort
