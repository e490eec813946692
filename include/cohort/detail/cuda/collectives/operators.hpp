// What the CUDA collectives know about an operator: whether combining in
// either order gives the same bits (so a butterfly may combine a lane's value
// with its partner's without first ordering them by rank), and which
// redux.sync instruction computes it (sm_80+: add, min, max, and, or, xor of
// 32-bit integers). Any other callable is combined strictly in rank order.
#pragma once

#include <cuda_runtime.h>

#include <type_traits>

#include "cohort/collectives/functional.hpp"

namespace cohort::detail::gpu {

// plus and the bitwise operators commute bit for bit on integers and floating
// point alike; less and greater only on integers (on floats, -0.0 against
// +0.0 and NaNs depend on the order).
template <class Op, class T>
inline constexpr bool commutes =
    (std::is_arithmetic_v<T> && std::is_same_v<Op, plus<T>>) ||
    (std::is_integral_v<T> &&
     (std::is_same_v<Op, less<T>> || std::is_same_v<Op, greater<T>> || std::is_same_v<Op, bit_and<T>> ||
      std::is_same_v<Op, bit_or<T>> || std::is_same_v<Op, bit_xor<T>>));

// op over a lane's value and its partner's, in rank order.
template <class Op, class T>
__device__ __forceinline__ T combine_in_order(Op& op, const T& mine, const T& other, bool mine_first) {
  if constexpr (commutes<std::remove_cv_t<Op>, T>) {
    return op(mine, other);
  } else {
    const T& lower = mine_first ? mine : other;
    const T& upper = mine_first ? other : mine;
    return op(lower, upper);
  }
}

// redux.sync covers integers of up to 32 bits (narrower ones widened, as
// NVIDIA's implementation does) under cohort's operators.
template <class Op, class T>
inline constexpr bool has_redux =
    std::is_integral_v<T> && sizeof(T) <= 4 && !std::is_same_v<T, bool> &&
    (std::is_same_v<Op, plus<T>> || std::is_same_v<Op, less<T>> || std::is_same_v<Op, greater<T>> ||
     std::is_same_v<Op, bit_and<T>> || std::is_same_v<Op, bit_or<T>> || std::is_same_v<Op, bit_xor<T>>);

#if __CUDA_ARCH__ >= 800
template <class Op, class T>
__device__ __forceinline__ T redux(unsigned lanes, T v) {
  using W = std::conditional_t<std::is_signed_v<T>, int, unsigned>;
  const W w = static_cast<W>(v);
  if constexpr (std::is_same_v<Op, plus<T>>)
    return static_cast<T>(__reduce_add_sync(lanes, w));
  else if constexpr (std::is_same_v<Op, less<T>>)
    return static_cast<T>(__reduce_min_sync(lanes, w));
  else if constexpr (std::is_same_v<Op, greater<T>>)
    return static_cast<T>(__reduce_max_sync(lanes, w));
  else if constexpr (std::is_same_v<Op, bit_and<T>>)
    return static_cast<T>(__reduce_and_sync(lanes, static_cast<unsigned>(w)));
  else if constexpr (std::is_same_v<Op, bit_or<T>>)
    return static_cast<T>(__reduce_or_sync(lanes, static_cast<unsigned>(w)));
  else
    return static_cast<T>(__reduce_xor_sync(lanes, static_cast<unsigned>(w)));
}
#endif

// A value that may be absent: what precedes rank 0 of a scan (nothing, the
// atomic's old value, the blocks before on a grid). Operators need not have
// an identity, so absence is a flag, not a neutral value.
template <class T>
struct maybe {
  T value;
  bool has;
};

// before op x, or x alone.
template <class Op, class T>
__device__ __forceinline__ T after(Op& op, const maybe<T>& before, const T& x) {
  return before.has ? op(before.value, x) : x;
}

// before op x, where each may be absent.
template <class Op, class T>
__device__ __forceinline__ maybe<T> join(Op& op, const maybe<T>& before, const maybe<T>& x) {
  if (!x.has) return before;
  return {after(op, before, x.value), true};
}

}  // namespace cohort::detail::gpu
