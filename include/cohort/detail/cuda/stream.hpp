// The stream primitives of the CUDA backend: an owned cudaStream_t. It is a
// blocking stream (it waits for the legacy default stream, where cohort's
// copies and fills run), so work ordered on the host is ordered on the device
// too; two cohort streams still run concurrently with each other.
#pragma once

#include <cuda_runtime.h>

#include "cohort/detail/cuda/runtime/runtime_check.hpp"
#include "cohort/detail/cuda/stream_handle.hpp"

namespace cohort::detail::gpu {

inline stream_t create_stream() {
  stream_t handle = nullptr;
  check(cudaStreamCreate(&handle), "stream creation");
  return handle;
}
// A destructor cannot report; a context that already failed has released the stream anyway.
inline void destroy_stream(stream_t handle) noexcept { cudaStreamDestroy(handle); }
inline void synchronize_stream(stream_t handle) { check(cudaStreamSynchronize(handle), "stream::synchronize"); }

}  // namespace cohort::detail::gpu
