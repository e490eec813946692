// cohort::stream on the CUDA backend: an owned cudaStream_t. It is a blocking
// stream (it waits for the legacy default stream, where cohort's copies and
// fills run), so work ordered on the host is ordered on the device too; two
// cohort streams still run concurrently with each other.
#pragma once

#include <cuda_runtime.h>

#include <utility>

#include "cohort/cuda/runtime_check.hpp"
#include "cohort/launch_config.hpp"

namespace cohort {

class stream {
 public:
  stream() { detail::gpu::check(cudaStreamCreate(&handle_), "stream creation"); }
  ~stream() {
    // A destructor cannot report; a context that already failed has released the stream anyway.
    if (handle_) cudaStreamDestroy(handle_);
  }
  stream(stream&& other) noexcept : handle_(std::exchange(other.handle_, nullptr)) {}
  stream& operator=(stream&& other) noexcept {
    std::swap(handle_, other.handle_);
    return *this;
  }
  stream(const stream&) = delete;
  stream& operator=(const stream&) = delete;

  // A moved-from stream answers the legacy default stream.
  stream_t get() const { return handle_; }
  void synchronize() const { detail::gpu::check(cudaStreamSynchronize(handle_), "stream::synchronize"); }

 private:
  cudaStream_t handle_ = nullptr;
};

}  // namespace cohort
