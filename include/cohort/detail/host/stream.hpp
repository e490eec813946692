// The stream primitives of the host backend: a stream orders nothing, since
// every launch has completed when it returns. It exists so that code written
// for CUDA compiles as is.
#pragma once

#include "cohort/detail/host/stream_handle.hpp"

namespace cohort::detail::host {

inline stream_t create_stream() noexcept { return nullptr; }
inline void destroy_stream(stream_t) noexcept {}
inline void synchronize_stream(stream_t) noexcept {}

}  // namespace cohort::detail::host
