// The entry points of ThreadSanitizer's instrumentation, for kernels compiled
// with it under COHORT_CHECK=races (race_check.hpp): in place of libtsan, a
// library of their own (cohort_race_hooks), linked only into programs built
// for race checking, so that a program built with the real ThreadSanitizer
// gets libtsan's. Plain loads and stores go to the shadow of the running
// block's shared memory; atomics are carried out and not recorded; function
// entries and exits are not needed (the report names the accesses' lines).
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
#define COHORT_RACE_SIZES(prefix, write)               \
  COHORT_RACE_ACCESS(prefix##1, 1, write)              \
  COHORT_RACE_ACCESS(prefix##2, 2, write)              \
  COHORT_RACE_ACCESS(prefix##4, 4, write)              \
  COHORT_RACE_ACCESS(prefix##8, 8, write)              \
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
void __tsan_read_range(void* address, unsigned long size) {
  access(address, size, false, __builtin_return_address(0));
}
void __tsan_write_range(void* address, unsigned long size) {
  access(address, size, true, __builtin_return_address(0));
}
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
// order asked for), as this file is compiled without the instrumentation.
void __tsan_atomic_thread_fence(int) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
void __tsan_atomic_signal_fence(int) { __atomic_signal_fence(__ATOMIC_SEQ_CST); }

}  // extern "C"

#define COHORT_RACE_ATOMICS(bits, type)                                                                               \
  extern "C" type __tsan_atomic##bits##_load(const volatile type* a, int) {                                           \
    return __atomic_load_n(a, __ATOMIC_SEQ_CST);                                                                      \
  }                                                                                                                   \
  extern "C" void __tsan_atomic##bits##_store(volatile type* a, type v, int) {                                        \
    __atomic_store_n(a, v, __ATOMIC_SEQ_CST);                                                                         \
  }                                                                                                                   \
  extern "C" type __tsan_atomic##bits##_exchange(volatile type* a, type v, int) {                                     \
    return __atomic_exchange_n(a, v, __ATOMIC_SEQ_CST);                                                               \
  }                                                                                                                   \
  extern "C" type __tsan_atomic##bits##_fetch_add(volatile type* a, type v, int) {                                    \
    return __atomic_fetch_add(a, v, __ATOMIC_SEQ_CST);                                                                \
  }                                                                                                                   \
  extern "C" type __tsan_atomic##bits##_fetch_sub(volatile type* a, type v, int) {                                    \
    return __atomic_fetch_sub(a, v, __ATOMIC_SEQ_CST);                                                                \
  }                                                                                                                   \
  extern "C" type __tsan_atomic##bits##_fetch_and(volatile type* a, type v, int) {                                    \
    return __atomic_fetch_and(a, v, __ATOMIC_SEQ_CST);                                                                \
  }                                                                                                                   \
  extern "C" type __tsan_atomic##bits##_fetch_or(volatile type* a, type v, int) {                                     \
    return __atomic_fetch_or(a, v, __ATOMIC_SEQ_CST);                                                                 \
  }                                                                                                                   \
  extern "C" type __tsan_atomic##bits##_fetch_xor(volatile type* a, type v, int) {                                    \
    return __atomic_fetch_xor(a, v, __ATOMIC_SEQ_CST);                                                                \
  }                                                                                                                   \
  extern "C" type __tsan_atomic##bits##_fetch_nand(volatile type* a, type v, int) {                                   \
    return __atomic_fetch_nand(a, v, __ATOMIC_SEQ_CST);                                                               \
  }                                                                                                                   \
  extern "C" int __tsan_atomic##bits##_compare_exchange_strong(volatile type* a, type* expected, type v, int, int) {  \
    return __atomic_compare_exchange_n(a, expected, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);                    \
  }                                                                                                                   \
  extern "C" int __tsan_atomic##bits##_compare_exchange_weak(volatile type* a, type* expected, type v, int, int) {    \
    return __atomic_compare_exchange_n(a, expected, v, true, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);                     \
  }                                                                                                                   \
  extern "C" type __tsan_atomic##bits##_compare_exchange_val(volatile type* a, type expected, type v, int, int) {     \
    __atomic_compare_exchange_n(a, &expected, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);                          \
    return expected;                                                                                                  \
  }
COHORT_RACE_ATOMICS(8, std::uint8_t)
COHORT_RACE_ATOMICS(16, std::uint16_t)
COHORT_RACE_ATOMICS(32, std::uint32_t)
COHORT_RACE_ATOMICS(64, std::uint64_t)
