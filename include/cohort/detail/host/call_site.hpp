// cohort::call_site on the host backend: where in the kernel's source a
// collective or barrier was called, so that a diagnostic can name the line.
// Every public function that can raise a diagnostic takes one as its last
// parameter, defaulted to the caller's location.
#pragma once

#include <source_location>

// Said first here, before the errors that follow from it: libstdc++'s
// <source_location> needs the compiler's __builtin_source_location (g++ 11,
// clang 15) and C++20.
#if !defined(__cpp_lib_source_location)
#error \
    "cohort's host backend needs std::source_location: compile as C++20 (-std=c++20) with g++ 11 or later or clang 15 or later"
#endif

namespace cohort {
using call_site = std::source_location;
}  // namespace cohort
