// CUDA's kernel-language spelling for a host compiler: qualifiers, built-in
// index variables, __syncthreads(), atomics and fences, and the warp
// intrinsics. Kernel code written for nvcc compiles unchanged with g++/clang++
// against these.
#pragma once

#include <memory>  // before __noinline__ (below)
#include <source_location>
#include <type_traits>

#include "cohort/detail/host/language/atomics.hpp"
#include "cohort/detail/host/language/vector_types.hpp"
#include "cohort/detail/host/language/warp_intrinsics.hpp"
#include "cohort/detail/host/runtime/state.hpp"

// Under clang, a kernel carries an annotation by which cohort's loops pass
// (tools/loops-pass, docs/loops-engine.md) finds it; without the pass it changes nothing.
#if defined(__clang__)
#define __global__ __attribute__((annotate("cohort.kernel")))
#else
#define __global__
#endif
#define __device__
#define __host__
#define __forceinline__ inline __attribute__((always_inline))
// libstdc++'s <memory> spells GCC's attribute __attribute__((__noinline__)),
// which this macro would break: it is included above, so its include guard
// keeps later inclusions from expanding it.
#define __noinline__ __attribute__((noinline))
#define __launch_bounds__(...)
#define __restrict__ __restrict
// Blocks of a launch never share an OS thread at the same time, and a block's
// threads never leave theirs: a thread_local is exactly one block's copy.
#define __shared__ static thread_local
#define __constant__
#define __align__(n) alignas(n)

namespace cohort::detail::host {
void block_sync(std::source_location where);
}  // namespace cohort::detail::host

inline void __syncthreads(std::source_location where = std::source_location::current()) {
  ::cohort::detail::host::block_sync(where);
}

// CUDA's min and max for kernels (math_functions.hpp overloads them for every
// pair of arithmetic types): the common type of the two, as its mixed-sign
// overloads give. Where std::min also applies (same types, `using std::min`)
// it is the more specialized template and wins.
template <class A, class B>
  requires std::is_arithmetic_v<A> && std::is_arithmetic_v<B>
constexpr std::common_type_t<A, B> min(A a, B b) {
  using C = std::common_type_t<A, B>;
  return static_cast<C>(b) < static_cast<C>(a) ? static_cast<C>(b) : static_cast<C>(a);
}
template <class A, class B>
  requires std::is_arithmetic_v<A> && std::is_arithmetic_v<B>
constexpr std::common_type_t<A, B> max(A a, B b) {
  using C = std::common_type_t<A, B>;
  return static_cast<C>(a) < static_cast<C>(b) ? static_cast<C>(b) : static_cast<C>(a);
}
