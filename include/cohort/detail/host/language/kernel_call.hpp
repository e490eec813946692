// A kernel called for one thread as a GPU calls it: each parameter is a
// bitwise copy of the launch's argument, and no constructor or destructor of
// a parameter runs per thread. (nvcc copies an argument on the host, copy
// constructor and all, and the kernel's parameter memory receives its bytes;
// the device never constructs or destroys a parameter.) A plain C++ call of a
// by-value parameter runs its copy constructor and destructor for each
// thread: 16,384 of each for a grid of 256 x 64 threads, which a type that
// owns a resource (CUDA by Example's Lock frees its mutex in its destructor)
// turns into double frees while the kernel still runs.
//
// Parameters whose copy and destruction are trivial are passed as they are.
// The others are, in the Itanium C++ ABI (x86-64 and AArch64 Linux), passed by
// the address of a temporary that the caller makes and destroys: the kernel
// is called through that signature, with the address of a per-thread bitwise
// copy (the thread may modify its parameter, as a GPU thread may), which is
// never destroyed.
#pragma once

#include <cstring>
#include <memory>
#include <tuple>
#include <type_traits>
#include <utility>

namespace cohort::detail::host {

// A class parameter the ABI passes by the address of a caller-made temporary:
// one with a non-trivial destructor, copy constructor or move constructor.
// (A reference parameter is an address already.)
template <class P, class T = std::remove_cv_t<P>>
inline constexpr bool passed_by_address =
    std::is_class_v<T> && (!std::is_trivially_destructible_v<T> ||
                           (std::is_copy_constructible_v<T> && !std::is_trivially_copy_constructible_v<T>) ||
                           (std::is_move_constructible_v<T> && !std::is_trivially_move_constructible_v<T>));

template <class... P>
inline constexpr bool any_passed_by_address = (passed_by_address<P> || ...);

// The parameter as the ABI passes it.
template <class P>
using abi_parameter = std::conditional_t<passed_by_address<P>, std::decay_t<P>*, P>;

// Storage for a thread's bitwise copy of an argument passed by address; none for the others.
template <class P, class T = std::decay_t<P>, bool = passed_by_address<P>>
struct thread_copy {
  explicit thread_copy(const T&) {}
  const T& parameter(const T& argument) { return argument; }
};
template <class P, class T>
struct thread_copy<P, T, true> {
  alignas(T) unsigned char bytes[sizeof(T)];
  explicit thread_copy(const T& argument) {
    std::memcpy(bytes, static_cast<const void*>(std::addressof(argument)), sizeof(T));
  }
  T* parameter(const T&) { return reinterpret_cast<T*>(bytes); }
};

template <class... P, std::size_t... I>
void call_kernel_bitwise(void (*kernel)(P...), const std::tuple<std::decay_t<P>...>& args, std::index_sequence<I...>) {
  auto* as_abi = reinterpret_cast<void (*)(abi_parameter<P>...)>(kernel);
  // Opaque to the optimizer, which must not treat the call as one through a mismatched type.
  asm volatile("" : "+r"(as_abi));
  std::tuple<thread_copy<P>...> copies{thread_copy<P>(std::get<I>(args))...};
  as_abi(std::get<I>(copies).parameter(std::get<I>(args))...);
}

// Calls `kernel` for the running thread with the launch's arguments.
template <class... P>
void call_kernel(void (*kernel)(P...), const std::tuple<std::decay_t<P>...>& args) {
  if constexpr (any_passed_by_address<P...>)
    call_kernel_bitwise(kernel, args, std::index_sequence_for<P...>{});
  else
    std::apply(kernel, args);
}

}  // namespace cohort::detail::host
