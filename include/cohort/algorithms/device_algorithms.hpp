// Whole-array algorithms called from the host on device memory
// (docs/algorithms.md), with the same results as the grid algorithms. On
// CUDA each is one launch of a grid sized from occupancy, ordered on
// `stream`; on the host backend each is native code that has finished when
// it returns (detail/host/array_algorithms.hpp).
#pragma once

#include <cstddef>

#include "cohort/backend.hpp"
#include "cohort/detail/partial_value.hpp"
#include "cohort/launch/launch_config.hpp"

#if COHORT_BACKEND_CUDA
#include "cohort/detail/cuda/array_reduce.hpp"
#include "cohort/detail/cuda/array_scan.hpp"
#else
#include "cohort/detail/host/array_algorithms.hpp"
#endif

namespace cohort {

// *out = in[0] op ... op in[n - 1]; with n == 0, the operator's identity
// (detail::identity_of: T{} for an operator cohort does not know).
template <class T, class Op>
void device_reduce(const T* in, std::size_t n, T* out, Op op, stream_t stream = {}) {
  static_assert(detail::array_element<T>, "device algorithms take trivially copyable element types of at most 24 bytes");
#if COHORT_BACKEND_CUDA
  detail::gpu::device_reduce(in, n, out, op, stream);
#else
  static_cast<void>(stream);
  detail::host::host_reduce(in, n, out, op);
#endif
}

// out[i] = in[0] op ... op in[i]. out may be in; otherwise the two must not overlap.
template <class T, class Op>
void device_inclusive_scan(const T* in, T* out, std::size_t n, Op op, stream_t stream = {}) {
  static_assert(detail::array_element<T>, "device algorithms take trivially copyable element types of at most 24 bytes");
#if COHORT_BACKEND_CUDA
  detail::gpu::device_scan<true>(in, out, n, detail::absent<T>(), op, stream);
#else
  static_cast<void>(stream);
  detail::host::host_inclusive_scan(in, out, n, op);
#endif
}

// out[0] = init, out[i] = init op in[0] op ... op in[i - 1]. out may be in.
template <class T, class Op>
void device_exclusive_scan(const T* in, T* out, std::size_t n, T init, Op op, stream_t stream = {}) {
  static_assert(detail::array_element<T>, "device algorithms take trivially copyable element types of at most 24 bytes");
#if COHORT_BACKEND_CUDA
  detail::gpu::device_scan<false>(in, out, n, detail::partial<T>{init, true}, op, stream);
#else
  static_cast<void>(stream);
  detail::host::host_exclusive_scan(in, out, n, init, op);
#endif
}

}  // namespace cohort
