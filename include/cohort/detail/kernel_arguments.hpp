// What both backends need to know about a kernel and its arguments before a
// launch: its identity (the address the backends key attributes by) and
// whether the arguments fit its parameters.
#pragma once

#include <type_traits>

namespace cohort::detail {

template <class... P>
const void* kernel_address(void (*kernel)(P...)) {
  return reinterpret_cast<const void*>(kernel);
}

// Readable compile errors for a wrong argument list, instead of a failed deduction.
template <class Params, class Args>
struct arguments_fit;
template <class... P, class... A>
struct arguments_fit<void(P...), void(A...)> {
  static_assert(sizeof...(P) == sizeof...(A), "cohort::launch: the kernel takes a different number of arguments");
  static constexpr bool value = [] {
    if constexpr (sizeof...(P) == sizeof...(A))
      return (std::is_convertible_v<A, P> && ...);
    else
      return false;
  }();
  static_assert(value || sizeof...(P) != sizeof...(A),
                "cohort::launch: an argument does not convert to the kernel's parameter type");
};

}  // namespace cohort::detail
