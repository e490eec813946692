// clock() and clock64() in kernels count cycles of the device's clock, whose
// rate cudaDeviceProp::clockRate and cudaDevAttrClockRate report: 1 GHz, so a
// cycle is a nanosecond of a steady clock, and a kernel that spins until the
// counter has advanced by N cycles takes N / clockRate, as on the GPU.
// A block's threads take turns on one OS thread: a thread reading the clock
// lets the others run now and then, so that threads spinning on the clock
// together wait N cycles together, not one after another.
// Outside a kernel clock() stays the C library's (processor time in
// CLOCKS_PER_SEC), which host code in .cu files times itself with.
#pragma once

// <time.h> and <ctime> both before the macro below, so that their declarations of clock stay intact.
#include <time.h>
#include <chrono>
#include <ctime>
#include <source_location>

#include <cohort/cohort.hpp>

namespace cohort::compat {
inline long long steady_nanoseconds() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}
// Every 16th clock read of a kernel's OS thread yields to the block's next
// thread. The count is the runtime's, shared by the fibers of an OS thread: not
// instrumented for race checking (COHORT_CHECK=races), which would take it for
// the program's.
__attribute__((no_sanitize("thread"))) inline void clock_read_in_kernel(std::source_location where) {
  thread_local unsigned reads = 0;
  if (++reads % 16 == 0) cohort::detail::host::spin_yield(where);
}
}  // namespace cohort::compat

inline long long clock64(std::source_location where = std::source_location::current()) {
  if (::cohort::detail::host::current_block != nullptr) cohort::compat::clock_read_in_kernel(where);
  return cohort::compat::steady_nanoseconds();
}
inline unsigned long long __globaltimer() {
  return static_cast<unsigned long long>(cohort::compat::steady_nanoseconds());
}

// The device's counter is 64 bits wide on the host (clock_t is), so it never
// wraps during a program, where the GPU's 32-bit %clock would.
inline clock_t cohort_compat_clock() noexcept {
  if (::cohort::detail::host::current_block != nullptr) return static_cast<clock_t>(clock64());
  return ::clock();
}
namespace std {
using ::cohort_compat_clock;  // std::clock() in a kernel
}  // namespace std
#define clock() cohort_compat_clock()
