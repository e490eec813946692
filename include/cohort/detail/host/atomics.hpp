// CUDA's atomic functions on the host: real atomics through std::atomic_ref,
// with CUDA's return value (the old value) and CUDA's wrap-around rules for
// atomicInc/atomicDec. Fences map to std::atomic_thread_fence.
#pragma once

#include <atomic>
#include <type_traits>

namespace cohort::detail::host {

template <class T>
std::atomic_ref<T> atomic_at(T* address) {
  return std::atomic_ref<T>(*address);
}

// Read-modify-write through compare-exchange, for the operations atomic_ref lacks.
template <class T, class F>
T atomic_update(T* address, F next) {
  auto ref = atomic_at(address);
  T old = ref.load(std::memory_order_relaxed);
  while (!ref.compare_exchange_weak(old, next(old), std::memory_order_seq_cst, std::memory_order_relaxed)) {
  }
  return old;
}

}  // namespace cohort::detail::host

template <class T>
inline T atomicAdd(T* address, std::type_identity_t<T> value) {
  return ::cohort::detail::host::atomic_at(address).fetch_add(value);
}
template <class T>
inline T atomicSub(T* address, std::type_identity_t<T> value) {
  return ::cohort::detail::host::atomic_at(address).fetch_sub(value);
}
template <class T>
inline T atomicExch(T* address, std::type_identity_t<T> value) {
  return ::cohort::detail::host::atomic_at(address).exchange(value);
}
template <class T>
inline T atomicMin(T* address, std::type_identity_t<T> value) {
  return ::cohort::detail::host::atomic_update(address, [value](T old) { return value < old ? value : old; });
}
template <class T>
inline T atomicMax(T* address, std::type_identity_t<T> value) {
  return ::cohort::detail::host::atomic_update(address, [value](T old) { return old < value ? value : old; });
}
template <class T>
inline T atomicCAS(T* address, std::type_identity_t<T> compare, std::type_identity_t<T> value) {
  ::cohort::detail::host::atomic_at(address).compare_exchange_strong(compare, value);
  return compare;  // holds the old value whether or not the exchange happened
}
template <class T>
inline T atomicAnd(T* address, std::type_identity_t<T> value) {
  return ::cohort::detail::host::atomic_at(address).fetch_and(value);
}
template <class T>
inline T atomicOr(T* address, std::type_identity_t<T> value) {
  return ::cohort::detail::host::atomic_at(address).fetch_or(value);
}
template <class T>
inline T atomicXor(T* address, std::type_identity_t<T> value) {
  return ::cohort::detail::host::atomic_at(address).fetch_xor(value);
}
// ((old >= limit) ? 0 : old + 1), as CUDA defines it.
inline unsigned atomicInc(unsigned* address, unsigned limit) {
  return ::cohort::detail::host::atomic_update(address, [limit](unsigned old) { return old >= limit ? 0u : old + 1; });
}
// (((old == 0) || (old > limit)) ? limit : old - 1), as CUDA defines it.
inline unsigned atomicDec(unsigned* address, unsigned limit) {
  return ::cohort::detail::host::atomic_update(
      address, [limit](unsigned old) { return (old == 0 || old > limit) ? limit : old - 1; });
}

inline void __threadfence() { std::atomic_thread_fence(std::memory_order_seq_cst); }
inline void __threadfence_block() { std::atomic_thread_fence(std::memory_order_seq_cst); }
inline void __threadfence_system() { std::atomic_thread_fence(std::memory_order_seq_cst); }
