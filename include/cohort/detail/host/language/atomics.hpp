// CUDA's atomic functions on the host: real atomics through std::atomic_ref,
// relaxed as CUDA's are (a fence is what orders other memory around them, as
// COHORT_CHECK=races checks), with CUDA's return value (the old value) and
// CUDA's wrap-around rules for atomicInc/atomicDec. Fences map to
// std::atomic_thread_fence.
//
// Every atomic, fence and __nanosleep is also a place where a spinning thread
// lets the others of its block run: fibers are not preempted, so a thread
// polling a flag that a later thread of its block sets would otherwise spin
// forever. An atomic that sees, at the same address, the same value as the
// thread's previous atomic counts as a poll; every 64th poll in a row yields
// (and past COHORT_WATCHDOG seconds fails the launch, naming the spin).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <source_location>
#include <type_traits>

#include "cohort/detail/host/runtime/state.hpp"

namespace cohort::detail::host {

void spin_yield(std::source_location where);

template <unsigned Every = 64, class T>
inline T observed(const void* address, T value, std::source_location where) {
  block_record* const b = current_block;
  if (b == nullptr) return value;  // host code
  // current_thread is not written in a streak: the record from the position.
  thread_record* const t = b->threads + thread_rank();
  std::uint64_t bits = 0;
  std::memcpy(&bits, &value, sizeof(T) < sizeof bits ? sizeof(T) : sizeof bits);
  // A record serves the same rank of every block its worker runs, launch
  // after launch: polls count in a row only within one block (its serial),
  // or a fence per block would add up to a "spin" across 64 blocks.
  if (address == t->poll_address && bits == t->poll_value && t->poll_block == b->serial) {
    if (++t->poll_count % Every == 0) [[unlikely]]
      spin_yield(where);
  } else {
    t->poll_address = address;
    t->poll_value = bits;
    t->poll_count = 0;
    t->poll_block = b->serial;
    t->poll_since = 0;
  }
  return value;
}

// Fences and sleeps poll no address of their own: they count as polls of one.
inline constexpr char fence_poll = 0;
inline constexpr char sleep_poll = 0;

// An atomic at an address not aligned to its size: a GPU faults
// (cudaErrorMisalignedAddress), where std::atomic_ref's behaviour is undefined
// (x86 silently locks across two cache lines). Fails the launch naming the
// call, in kernel code; throws in host code.
[[noreturn, gnu::cold]] void misaligned_atomic(const char* name, const void* address, std::size_t alignment,
                                               std::source_location where);

template <class T>
std::atomic_ref<T> atomic_at(T* address, const char* name, std::source_location where) {
  constexpr std::size_t alignment = std::atomic_ref<T>::required_alignment;
  if (reinterpret_cast<std::uintptr_t>(address) % alignment != 0) [[unlikely]]
    misaligned_atomic(name, address, alignment, where);
  return std::atomic_ref<T>(*address);
}

// Read-modify-write through compare-exchange, for the operations atomic_ref lacks.
template <class T, class F>
T atomic_update(T* address, F next, const char* name, std::source_location where) {
  auto ref = atomic_at(address, name, where);
  T old = ref.load(std::memory_order_relaxed);
  while (!ref.compare_exchange_weak(old, next(old), std::memory_order_relaxed)) {
  }
  return old;
}

}  // namespace cohort::detail::host

template <class T>
inline T atomicAdd(T* address, std::type_identity_t<T> value,
                   std::source_location where = std::source_location::current()) {
  return ::cohort::detail::host::observed(
      address,
      ::cohort::detail::host::atomic_at(address, "atomicAdd", where).fetch_add(value, std::memory_order_relaxed),
      where);
}
template <class T>
inline T atomicSub(T* address, std::type_identity_t<T> value,
                   std::source_location where = std::source_location::current()) {
  return ::cohort::detail::host::observed(
      address,
      ::cohort::detail::host::atomic_at(address, "atomicSub", where).fetch_sub(value, std::memory_order_relaxed),
      where);
}
template <class T>
inline T atomicExch(T* address, std::type_identity_t<T> value,
                    std::source_location where = std::source_location::current()) {
  return ::cohort::detail::host::observed(
      address,
      ::cohort::detail::host::atomic_at(address, "atomicExch", where).exchange(value, std::memory_order_relaxed),
      where);
}
template <class T>
inline T atomicMin(T* address, std::type_identity_t<T> value,
                   std::source_location where = std::source_location::current()) {
  return ::cohort::detail::host::observed(
      address,
      ::cohort::detail::host::atomic_update(
          address, [value](T old) { return value < old ? value : old; }, "atomicMin", where),
      where);
}
template <class T>
inline T atomicMax(T* address, std::type_identity_t<T> value,
                   std::source_location where = std::source_location::current()) {
  return ::cohort::detail::host::observed(
      address,
      ::cohort::detail::host::atomic_update(
          address, [value](T old) { return old < value ? value : old; }, "atomicMax", where),
      where);
}
template <class T>
inline T atomicCAS(T* address, std::type_identity_t<T> compare, std::type_identity_t<T> value,
                   std::source_location where = std::source_location::current()) {
  ::cohort::detail::host::atomic_at(address, "atomicCAS", where)
      .compare_exchange_strong(compare, value, std::memory_order_relaxed);
  return ::cohort::detail::host::observed(address, compare, where);  // the old value, exchanged or not
}
template <class T>
inline T atomicAnd(T* address, std::type_identity_t<T> value,
                   std::source_location where = std::source_location::current()) {
  return ::cohort::detail::host::observed(
      address,
      ::cohort::detail::host::atomic_at(address, "atomicAnd", where).fetch_and(value, std::memory_order_relaxed),
      where);
}
template <class T>
inline T atomicOr(T* address, std::type_identity_t<T> value,
                  std::source_location where = std::source_location::current()) {
  return ::cohort::detail::host::observed(
      address, ::cohort::detail::host::atomic_at(address, "atomicOr", where).fetch_or(value, std::memory_order_relaxed),
      where);
}
template <class T>
inline T atomicXor(T* address, std::type_identity_t<T> value,
                   std::source_location where = std::source_location::current()) {
  return ::cohort::detail::host::observed(
      address,
      ::cohort::detail::host::atomic_at(address, "atomicXor", where).fetch_xor(value, std::memory_order_relaxed),
      where);
}
// ((old >= limit) ? 0 : old + 1), as CUDA defines it.
inline unsigned atomicInc(unsigned* address, unsigned limit,
                          std::source_location where = std::source_location::current()) {
  return ::cohort::detail::host::observed(
      address,
      ::cohort::detail::host::atomic_update(
          address, [limit](unsigned old) { return old >= limit ? 0u : old + 1; }, "atomicInc", where),
      where);
}
// (((old == 0) || (old > limit)) ? limit : old - 1), as CUDA defines it.
inline unsigned atomicDec(unsigned* address, unsigned limit,
                          std::source_location where = std::source_location::current()) {
  return ::cohort::detail::host::observed(
      address,
      ::cohort::detail::host::atomic_update(
          address, [limit](unsigned old) { return (old == 0 || old > limit) ? limit : old - 1; }, "atomicDec", where),
      where);
}

inline void __threadfence(std::source_location where = std::source_location::current()) {
  std::atomic_thread_fence(std::memory_order_seq_cst);
  ::cohort::detail::host::observed(&::cohort::detail::host::fence_poll, 0, where);
}
// A block's threads share one OS thread: the compiler's order is theirs.
inline void __threadfence_block(std::source_location where = std::source_location::current()) {
  std::atomic_signal_fence(std::memory_order_seq_cst);
  ::cohort::detail::host::observed(&::cohort::detail::host::fence_poll, 0, where);
}
inline void __threadfence_system(std::source_location where = std::source_location::current()) {
  std::atomic_thread_fence(std::memory_order_seq_cst);
  ::cohort::detail::host::observed(&::cohort::detail::host::fence_poll, 0, where);
}
// A thread that sleeps waits for another: it lets the others run.
inline void __nanosleep(unsigned, std::source_location where = std::source_location::current()) {
  ::cohort::detail::host::observed<1>(&::cohort::detail::host::sleep_poll, 0, where);
}
