// What a cudaStream_t made by cudaStreamCreate points to: streams.cpp creates,
// checks and destroys them, stream_attributes.cpp reads and sets their
// attributes.
#pragma once

#include <memory>

#include "stream_order.hpp"

namespace cohort::compat::detail {

// A stream's attributes (cudaStreamSetAttribute): hints, which the host
// backend records and reads back (l2_residency.hpp says why they do nothing).
struct stream_attributes {
  cudaAccessPolicyWindow access_policy_window{};
  cudaSynchronizationPolicy synchronization_policy = cudaSyncPolicyAuto;
  int priority = 0;
};

// 0, cudaStreamLegacy and cudaStreamPerThread: handles the runtime did not create.
inline bool default_stream(cudaStream_t stream) {
  return stream == nullptr || stream == cudaStreamLegacy || stream == cudaStreamPerThread;
}

// A priority in CUDA's range, where CUDA moves one outside it.
inline int clamped_priority(int priority) {
  return priority > least_stream_priority      ? least_stream_priority
         : priority < greatest_stream_priority ? greatest_stream_priority
                                               : priority;
}

}  // namespace cohort::compat::detail

struct CUstream_st {
  unsigned flags = 0;
  int device = 0;  // the current device when it was created, as in CUDA
  std::shared_ptr<cohort::compat::detail::stream_queue> queue;
  cohort::compat::detail::stream_attributes attributes;  // guarded by stream_attributes.cpp's lock
};
