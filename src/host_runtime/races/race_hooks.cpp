// The entry points of ThreadSanitizer's instrumentation, for kernels compiled
// with it under COHORT_CHECK=races (race_check.hpp): in place of libtsan, a
// library of their own (cohort_race_hooks), linked only into programs built
// for race checking, so that a program built with the real ThreadSanitizer
// gets libtsan's. Plain loads and stores go to the shadow of the running
// block's shared memory and of device memory; atomics are recorded too (a
// plain access racing with an atomic is a race, two atomics are not), and
// with fences they order blocks (block_order.hpp); function entries and exits
// are not needed (the report names the accesses' lines).
// The signatures are libtsan's (tsan_interface.h, tsan_interface_atomic.h).
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "races/race_check.hpp"

namespace {

namespace host = cohort::detail::host;

[[gnu::always_inline]] inline void access(const void* address, std::size_t size, bool write, void* pc) {
  host::race_access(reinterpret_cast<std::uintptr_t>(address), size, write, reinterpret_cast<std::uintptr_t>(pc));
}

}  // namespace

#define COHORT_RACE_ACCESS(name, size, write) \
  extern "C" void name(void* address) { access(address, size, write, __builtin_return_address(0)); }
#define COHORT_RACE_SIZES(prefix, write)  \
  COHORT_RACE_ACCESS(prefix##1, 1, write) \
  COHORT_RACE_ACCESS(prefix##2, 2, write) \
  COHORT_RACE_ACCESS(prefix##4, 4, write) \
  COHORT_RACE_ACCESS(prefix##8, 8, write) \
  COHORT_RACE_ACCESS(prefix##16, 16, write)
COHORT_RACE_SIZES(__tsan_read, false)
COHORT_RACE_SIZES(__tsan_write, true)
COHORT_RACE_SIZES(__tsan_unaligned_read, false)
COHORT_RACE_SIZES(__tsan_unaligned_write, true)
COHORT_RACE_SIZES(__tsan_volatile_read, false)
COHORT_RACE_SIZES(__tsan_volatile_write, true)

extern "C" {

void __tsan_init() { host::race_instrumentation_loaded(); }
void __tsan_func_entry(void*) {}
void __tsan_func_exit() {}
void __tsan_vptr_read(void**) {}
void __tsan_vptr_update(void**, void*) {}
void __tsan_read_range(void* address, unsigned long size) { access(address, size, false, __builtin_return_address(0)); }
void __tsan_write_range(void* address, unsigned long size) { access(address, size, true, __builtin_return_address(0)); }
// clang's instrumentation calls these for memcpy, memmove and memset.
void* __tsan_memcpy(void* to, const void* from, std::size_t size) {
  access(from, size, false, __builtin_return_address(0));
  access(to, size, true, __builtin_return_address(0));
  return std::memcpy(to, from, size);
}
void* __tsan_memmove(void* to, const void* from, std::size_t size) {
  access(from, size, false, __builtin_return_address(0));
  access(to, size, true, __builtin_return_address(0));
  return std::memmove(to, from, size);
}
void* __tsan_memset(void* to, int value, std::size_t size) {
  access(to, size, true, __builtin_return_address(0));
  return std::memset(to, value, size);
}

// Atomics, carried out sequentially consistent (at least as strong as any
// order asked for), as this file is compiled without the instrumentation;
// each recorded before (a release publishes) and, where it reads, acquiring
// after.
void __tsan_atomic_thread_fence(int order) {
  host::race_fence(order & 0xff);
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
void __tsan_atomic_signal_fence(int) { __atomic_signal_fence(__ATOMIC_SEQ_CST); }

}  // extern "C"

namespace {

// Carries out `op` on the atomic at `a`, which reads and/or writes it, between the checker's two calls.
template <class T, class Op>
[[gnu::always_inline]] inline auto atomic(const volatile T* a, bool reads, bool writes, int order, void* pc, Op op) {
  const auto at = reinterpret_cast<std::uintptr_t>(a);
  host::race_atomic_starts(at, sizeof(T), writes, order & 0xff, reinterpret_cast<std::uintptr_t>(pc));
  auto result = op();
  host::race_atomic_ended(at, reads);
  return result;
}

}  // namespace

#define COHORT_RACE_RMW(bits, type, name, builtin)                                                                     \
  extern "C" type __tsan_atomic##bits##_##name(volatile type* a, type v, int order) {                                  \
    return atomic(a, true, true, order, __builtin_return_address(0), [&] { return builtin(a, v, __ATOMIC_SEQ_CST); }); \
  }
#define COHORT_RACE_ATOMICS(bits, type)                                                                             \
  extern "C" type __tsan_atomic##bits##_load(const volatile type* a, int order) {                                   \
    return atomic(a, true, false, order, __builtin_return_address(0),                                               \
                  [&] { return __atomic_load_n(a, __ATOMIC_SEQ_CST); });                                            \
  }                                                                                                                 \
  extern "C" void __tsan_atomic##bits##_store(volatile type* a, type v, int order) {                                \
    atomic(a, false, true, order, __builtin_return_address(0), [&] {                                                \
      __atomic_store_n(a, v, __ATOMIC_SEQ_CST);                                                                     \
      return 0;                                                                                                     \
    });                                                                                                             \
  }                                                                                                                 \
  COHORT_RACE_RMW(bits, type, exchange, __atomic_exchange_n)                                                        \
  COHORT_RACE_RMW(bits, type, fetch_add, __atomic_fetch_add)                                                        \
  COHORT_RACE_RMW(bits, type, fetch_sub, __atomic_fetch_sub)                                                        \
  COHORT_RACE_RMW(bits, type, fetch_and, __atomic_fetch_and)                                                        \
  COHORT_RACE_RMW(bits, type, fetch_or, __atomic_fetch_or)                                                          \
  COHORT_RACE_RMW(bits, type, fetch_xor, __atomic_fetch_xor)                                                        \
  COHORT_RACE_RMW(bits, type, fetch_nand, __atomic_fetch_nand)                                                      \
  extern "C" int __tsan_atomic##bits##_compare_exchange_strong(volatile type* a, type* expected, type v, int order, \
                                                               int) {                                               \
    return atomic(a, true, true, order, __builtin_return_address(0), [&] {                                          \
      return __atomic_compare_exchange_n(a, expected, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);                \
    });                                                                                                             \
  }                                                                                                                 \
  extern "C" int __tsan_atomic##bits##_compare_exchange_weak(volatile type* a, type* expected, type v, int order,   \
                                                             int) {                                                 \
    return atomic(a, true, true, order, __builtin_return_address(0), [&] {                                          \
      return __atomic_compare_exchange_n(a, expected, v, true, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);                 \
    });                                                                                                             \
  }                                                                                                                 \
  extern "C" type __tsan_atomic##bits##_compare_exchange_val(volatile type* a, type expected, type v, int order,    \
                                                             int) {                                                 \
    return atomic(a, true, true, order, __builtin_return_address(0), [&] {                                          \
      __atomic_compare_exchange_n(a, &expected, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);                      \
      return expected;                                                                                              \
    });                                                                                                             \
  }
COHORT_RACE_ATOMICS(8, std::uint8_t)
COHORT_RACE_ATOMICS(16, std::uint16_t)
COHORT_RACE_ATOMICS(32, std::uint32_t)
COHORT_RACE_ATOMICS(64, std::uint64_t)
