// device_buffer<T>: an owning handle to device memory, over the public
// device-memory functions (memory/device_memory.hpp).
#pragma once

#include <algorithm>
#include <cstddef>
#include <utility>
#include <vector>

#include "cohort/memory/device_memory.hpp"

namespace cohort {

template <class T>
class device_buffer {
 public:
  device_buffer() = default;
  explicit device_buffer(std::size_t count) : data_(count ? malloc_device<T>(count) : nullptr), size_(count) {}
  explicit device_buffer(const std::vector<T>& values) : device_buffer(values.size()) { from_host(values); }
  device_buffer(device_buffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}
  device_buffer& operator=(device_buffer&& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
    return *this;
  }
  device_buffer(const device_buffer&) = delete;
  device_buffer& operator=(const device_buffer&) = delete;
  ~device_buffer() {
    if (data_) free_device(data_);
  }

  T* data() const { return data_; }
  std::size_t size() const { return size_; }

  void from_host(const std::vector<T>& values) { copy_to_device(data_, values.data(), std::min(values.size(), size_)); }
  std::vector<T> to_host() const {
    std::vector<T> out(size_);
    copy_to_host(out.data(), data_, size_);
    return out;
  }
  void fill(const T& value) { cohort::fill(data_, value, size_); }

 private:
  T* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace cohort
