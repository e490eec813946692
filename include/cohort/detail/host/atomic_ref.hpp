// cuda::atomic_ref and cuda::atomic as the host backend spells them:
// cohort::atomic_ref<T, Scope> refers to an object it does not own,
// cohort::atomic<T, Scope> owns its value; both are std::atomic underneath,
// with cuda::atomic_ref's member functions (const on the reference, as CUDA's
// are), fetch_min and fetch_max included. Every scope is the whole process on
// the host, so Scope only documents intent, as it does for the *_update
// collectives (docs/collectives.md describes what they need of an atomic).
#pragma once

#include <atomic>
#include <source_location>
#include <type_traits>

#include "cohort/detail/host/language/atomics.hpp"

namespace cohort {

// CUDA's spelling: cohort::thread_scope_block and so on.
enum thread_scope { thread_scope_system, thread_scope_device, thread_scope_block, thread_scope_thread };

using memory_order = std::memory_order;
inline constexpr memory_order memory_order_relaxed = std::memory_order_relaxed;
inline constexpr memory_order memory_order_consume = std::memory_order_consume;
inline constexpr memory_order memory_order_acquire = std::memory_order_acquire;
inline constexpr memory_order memory_order_release = std::memory_order_release;
inline constexpr memory_order memory_order_acq_rel = std::memory_order_acq_rel;
inline constexpr memory_order memory_order_seq_cst = std::memory_order_seq_cst;

namespace detail::host {

// fetch_min/fetch_max, which std::atomic and std::atomic_ref lack before C++26.
template <class Atomic, class T, class Replaces>
T fetch_pick(Atomic& a, T v, memory_order order, Replaces replaces) {
  T old = a.load(std::memory_order_relaxed);
  while (replaces(old, v) && !a.compare_exchange_weak(old, v, order, std::memory_order_relaxed)) {
  }
  return old;
}
inline constexpr auto smaller = [](auto old, auto v) { return v < old; };
inline constexpr auto larger = [](auto old, auto v) { return old < v; };

}  // namespace detail::host

template <class T, thread_scope Scope = thread_scope_system>
class atomic_ref {
 public:
  using value_type = T;
  explicit atomic_ref(T& object) : ref_(object), address_(&object) {}
  atomic_ref(const atomic_ref&) = default;
  atomic_ref& operator=(const atomic_ref&) = delete;

  T operator=(T v) const {
    store(v);
    return v;
  }
  operator T() const { return load(); }
  void store(T v, memory_order order = memory_order_seq_cst) const { ref_.store(v, order); }
  T load(memory_order order = memory_order_seq_cst,
         std::source_location where = std::source_location::current()) const {
    return detail::host::observed(address_, ref_.load(order), where);  // a spin's poll (atomics.hpp)
  }
  T exchange(T v, memory_order order = memory_order_seq_cst) const { return ref_.exchange(v, order); }
  bool compare_exchange_weak(T& expected, T desired, memory_order success, memory_order failure) const {
    return ref_.compare_exchange_weak(expected, desired, success, failure);
  }
  bool compare_exchange_weak(T& expected, T desired, memory_order order = memory_order_seq_cst) const {
    return ref_.compare_exchange_weak(expected, desired, order);
  }
  bool compare_exchange_strong(T& expected, T desired, memory_order success, memory_order failure) const {
    return ref_.compare_exchange_strong(expected, desired, success, failure);
  }
  bool compare_exchange_strong(T& expected, T desired, memory_order order = memory_order_seq_cst) const {
    return ref_.compare_exchange_strong(expected, desired, order);
  }
  T fetch_add(T v, memory_order order = memory_order_seq_cst) const
    requires std::is_arithmetic_v<T>
  {
    return ref_.fetch_add(v, order);
  }
  T fetch_sub(T v, memory_order order = memory_order_seq_cst) const
    requires std::is_arithmetic_v<T>
  {
    return ref_.fetch_sub(v, order);
  }
  T fetch_and(T v, memory_order order = memory_order_seq_cst) const
    requires std::is_integral_v<T>
  {
    return ref_.fetch_and(v, order);
  }
  T fetch_or(T v, memory_order order = memory_order_seq_cst) const
    requires std::is_integral_v<T>
  {
    return ref_.fetch_or(v, order);
  }
  T fetch_xor(T v, memory_order order = memory_order_seq_cst) const
    requires std::is_integral_v<T>
  {
    return ref_.fetch_xor(v, order);
  }
  T fetch_min(T v, memory_order order = memory_order_seq_cst) const
    requires std::is_arithmetic_v<T>
  {
    return detail::host::fetch_pick(ref_, v, order, detail::host::smaller);
  }
  T fetch_max(T v, memory_order order = memory_order_seq_cst) const
    requires std::is_arithmetic_v<T>
  {
    return detail::host::fetch_pick(ref_, v, order, detail::host::larger);
  }
  // The object referred to (std::atomic_ref::address, C++26).
  T* address() const noexcept { return address_; }

 private:
  std::atomic_ref<T> ref_;
  T* address_;
};

template <class T, thread_scope Scope = thread_scope_system>
class atomic : public std::atomic<T> {
 public:
  using value_type = T;
  atomic() = default;
  constexpr atomic(T v) noexcept : std::atomic<T>(v) {}
  using std::atomic<T>::operator=;

  T fetch_min(T v, memory_order order = memory_order_seq_cst)
    requires std::is_arithmetic_v<T>
  {
    return detail::host::fetch_pick(*this, v, order, detail::host::smaller);
  }
  T fetch_max(T v, memory_order order = memory_order_seq_cst)
    requires std::is_arithmetic_v<T>
  {
    return detail::host::fetch_pick(*this, v, order, detail::host::larger);
  }
};

}  // namespace cohort
