// cohort::call_site on the host backend: where in the kernel's source a
// collective or barrier was called, so that a diagnostic can name the line.
// Every public function that can raise a diagnostic takes one as its last
// parameter, defaulted to the caller's location.
#pragma once

#include <source_location>

namespace cohort {
using call_site = std::source_location;
}  // namespace cohort
