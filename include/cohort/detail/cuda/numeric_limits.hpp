// The numeric limits the shared headers use (identity elements of the
// operators): libcu++'s, usable in device code.
#pragma once

#include <cuda/std/limits>

namespace cohort::detail::gpu {

template <class T>
using limits = cuda::std::numeric_limits<T>;

}  // namespace cohort::detail::gpu
