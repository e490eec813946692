// Whole-array algorithms called from the host on device memory
// (docs/algorithms.md), with the same results as the grid algorithms. On
// CUDA each is one launch of a grid sized from occupancy, ordered on
// `stream`; on the host backend each is native code that has finished when
// it returns (detail/host/algorithms/array_algorithms.hpp).
#pragma once

#include <cstddef>

#include "cohort/backend.hpp"
#include "cohort/detail/partial_value.hpp"
#include "cohort/launch/launch_config.hpp"

#include COHORT_BACKEND_HEADER(device_algorithms.hpp)

namespace cohort {

// *out = in[0] op ... op in[n - 1]; with n == 0, the operator's identity
// (detail::identity_of: T{} for an operator cohort does not know).
template <class T, class Op>
void device_reduce(const T* in, std::size_t n, T* out, Op op, stream_t stream = {}) {
  static_assert(detail::array_element<T>,
                "device algorithms take trivially copyable element types of at most 24 bytes");
  detail::impl::array_reduce(in, n, out, op, stream);
}

// out[i] = in[0] op ... op in[i]. out may be in; otherwise the two must not overlap.
template <class T, class Op>
void device_inclusive_scan(const T* in, T* out, std::size_t n, Op op, stream_t stream = {}) {
  static_assert(detail::array_element<T>,
                "device algorithms take trivially copyable element types of at most 24 bytes");
  detail::impl::array_inclusive_scan(in, out, n, op, stream);
}

// out[0] = init, out[i] = init op in[0] op ... op in[i - 1]. out may be in.
template <class T, class Op>
void device_exclusive_scan(const T* in, T* out, std::size_t n, T init, Op op, stream_t stream = {}) {
  static_assert(detail::array_element<T>,
                "device algorithms take trivially copyable element types of at most 24 bytes");
  detail::impl::array_exclusive_scan(in, out, n, init, op, stream);
}

}  // namespace cohort
