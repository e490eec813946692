// How a group's total reaches an atomic reference (the *_update and *_store
// collectives): what an atomic must offer (docs/collectives.md, "Atomic
// references"), and the update itself, as NVIDIA performs it: a dedicated
// read-modify-write (fetch_add, fetch_min, ...) for cohort's operators on
// integers where the atomic has one, a compare-exchange loop with
// op(old, total) otherwise. Relaxed order throughout: the group's (or a larger
// group's) synchronization is what makes the result visible.
#pragma once

#include <atomic>
#include <concepts>
#include <cstdint>
#include <type_traits>

#include "cohort/collectives/functional.hpp"

namespace cohort::detail::host {

// cuda::atomic_ref's shape, as far as the collectives use it.
template <class A, class T>
concept atomic_reference = requires(A& a, T v, T& expected) {
  { a.load(std::memory_order_relaxed) } -> std::convertible_to<T>;
  a.store(v, std::memory_order_relaxed);
  { a.compare_exchange_weak(expected, v, std::memory_order_relaxed) } -> std::convertible_to<bool>;
};

// Applies `total` to the atomic with `op`; returns the value it replaced.
template <class T, class Op, class A>
T atomic_apply(A& a, const T& total, Op& op) {
  constexpr auto relaxed = std::memory_order_relaxed;
  using O = std::remove_cv_t<Op>;
  if constexpr (std::is_integral_v<T> && std::is_same_v<O, plus<T>> && requires { a.fetch_add(total, relaxed); })
    return a.fetch_add(total, relaxed);
  else if constexpr (std::is_integral_v<T> && std::is_same_v<O, less<T>> && requires { a.fetch_min(total, relaxed); })
    return a.fetch_min(total, relaxed);
  else if constexpr (std::is_integral_v<T> && std::is_same_v<O, greater<T>> &&
                     requires { a.fetch_max(total, relaxed); })
    return a.fetch_max(total, relaxed);
  else if constexpr (std::is_integral_v<T> && std::is_same_v<O, bit_and<T>> &&
                     requires { a.fetch_and(total, relaxed); })
    return a.fetch_and(total, relaxed);
  else if constexpr (std::is_integral_v<T> && std::is_same_v<O, bit_or<T>> && requires { a.fetch_or(total, relaxed); })
    return a.fetch_or(total, relaxed);
  else if constexpr (std::is_integral_v<T> && std::is_same_v<O, bit_xor<T>> &&
                     requires { a.fetch_xor(total, relaxed); })
    return a.fetch_xor(total, relaxed);
  else {
    T old = a.load(relaxed);
    while (!a.compare_exchange_weak(old, op(old, total), relaxed)) {
    }
    return old;
  }
}

// What names an atomic, so that the members can be checked to pass the same
// one: the object an atomic_ref refers to (where it says, through address()),
// or the atomic itself where it owns its value (it can't be copied); 0 when
// neither can be told, and no check is made.
template <class A>
std::uint64_t atomic_identity(const A& a) {
  if constexpr (requires { a.address(); })
    return reinterpret_cast<std::uintptr_t>(a.address());
  else if constexpr (!std::is_copy_constructible_v<A>)
    return reinterpret_cast<std::uintptr_t>(&a);
  else
    return 0;
}

}  // namespace cohort::detail::host
