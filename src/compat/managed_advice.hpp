// What cudaMemAdvise and cudaMemPrefetchAsync said about each byte of memory,
// kept so that cudaMemRangeGetAttribute can read it back as CUDA does. Byte
// ranges, not pages: a range's answer depends only on what was said about it.
#pragma once

#include <cstddef>
#include <functional>
#include <set>

#include "cuda_runtime.h"

namespace cohort::compat::detail {

struct range_advice {
  bool read_mostly = false;
  cudaMemLocation preferred{cudaMemLocationTypeInvalid, 0};  // cudaMemAdviseSetPreferredLocation
  std::set<int> accessed_by;                                 // devices, and cudaCpuDeviceId for the host
  cudaMemLocation last_prefetch{cudaMemLocationTypeInvalid, 0};
};

// Applies `change` to the advice of every byte of [p, p + bytes).
void change_advice(const void* p, std::size_t bytes, const std::function<void(range_advice&)>& change);
// Calls `visit` with the advice of [p, p + bytes), piece by piece (bytes never advised have the default).
void visit_advice(const void* p, std::size_t bytes, const std::function<void(const range_advice&)>& visit);
// The memory is freed: what was said about it no longer holds.
void forget_advice(const void* p, std::size_t bytes);

}  // namespace cohort::compat::detail
