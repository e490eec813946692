// How a group's total reaches an atomic (the *_update and *_store
// collectives), as on the host backend (detail/host/atomic_update.hpp) and as
// NVIDIA performs it: a dedicated read-modify-write (fetch_add, fetch_min, ...)
// for cohort's operators on integers, a compare-exchange loop with
// op(old, total) otherwise. Relaxed order: the group's (or a larger group's)
// synchronization is what publishes the result.
#pragma once

#include <cuda/atomic>

#include <concepts>
#include <type_traits>

#include "cohort/collectives/functional.hpp"

namespace cohort::detail::gpu {

// cuda::atomic_ref's shape, as far as the collectives use it.
template <class A, class T>
concept atomic_reference = requires(A& a, T v, T& expected) {
  { a.load(cuda::memory_order_relaxed) } -> std::convertible_to<T>;
  a.store(v, cuda::memory_order_relaxed);
  { a.compare_exchange_weak(expected, v, cuda::memory_order_relaxed) } -> std::convertible_to<bool>;
};

// Applies `total` to the atomic with `op`; returns the value it replaced.
template <class T, class Op, class A>
__device__ T atomic_apply(A& a, const T& total, Op& op) {
  constexpr auto relaxed = cuda::memory_order_relaxed;
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

}  // namespace cohort::detail::gpu
