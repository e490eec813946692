// The runtime's assertions on its own invariants (a thread's transitions, a
// block's record between blocks): checked in debug builds (NDEBUG not
// defined) and in sanitizer builds (COHORT_SANITIZE, which defines
// COHORT_SANITIZED, so that the RelWithDebInfo asan and tsan presets check
// them too); in a Release build they compile to nothing. A failed one is a
// fault of cohort's, not of the program: it says so on stderr and aborts.
#pragma once

#include <source_location>
#include <string_view>

namespace cohort::detail::host {

#if !defined(NDEBUG) || defined(COHORT_SANITIZED)
inline constexpr bool runtime_checks = true;
#else
inline constexpr bool runtime_checks = false;
#endif

// "cohort: internal error at file:line: what (the broken invariant: condition)", then abort().
[[noreturn]] void runtime_assertion_failed(std::string_view what, const char* condition, std::source_location where);

}  // namespace cohort::detail::host

// COHORT_ASSERT(condition, "what it means when it is false"): the condition
// is not evaluated where runtime_checks is false, so it may cost what it
// likes (a walk over a block's threads).
#define COHORT_ASSERT(condition, what)                                                                       \
  do {                                                                                                       \
    if constexpr (::cohort::detail::host::runtime_checks) {                                                  \
      if (!(condition)) [[unlikely]]                                                                         \
        ::cohort::detail::host::runtime_assertion_failed(what, #condition, std::source_location::current()); \
    }                                                                                                        \
  } while (false)
