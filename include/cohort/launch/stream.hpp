// cohort::stream: an owned stream, movable, not copyable. A moved-from stream
// answers the default stream. The backend supplies create_stream,
// destroy_stream and synchronize_stream (docs/architecture.md).
#pragma once

#include <utility>

#include "cohort/backend.hpp"

#include COHORT_BACKEND_HEADER(stream.hpp)

namespace cohort {

class stream {
 public:
  stream() : handle_(detail::impl::create_stream()) {}
  ~stream() {
    if (handle_) detail::impl::destroy_stream(handle_);
  }
  stream(stream&& other) noexcept : handle_(std::exchange(other.handle_, nullptr)) {}
  stream& operator=(stream&& other) noexcept {
    std::swap(handle_, other.handle_);
    return *this;
  }
  stream(const stream&) = delete;
  stream& operator=(const stream&) = delete;

  stream_t get() const { return handle_; }
  void synchronize() const { detail::impl::synchronize_stream(handle_); }

 private:
  stream_t handle_ = nullptr;
};

}  // namespace cohort
