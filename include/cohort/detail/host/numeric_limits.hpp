// The numeric limits the shared headers use (identity elements of the operators).
#pragma once

#include <limits>

namespace cohort::detail::host {

template <class T>
using limits = std::numeric_limits<T>;

}  // namespace cohort::detail::host
