// The whole-array algorithms' backend primitives on CUDA: one launch each,
// ordered on the stream (array_reduce.hpp, array_scan.hpp). Qualified calls:
// cohort::device_reduce & co. would also be found through the operator's namespace.
#pragma once

#include <cstddef>

#include "cohort/detail/cuda/algorithms/array_reduce.hpp"
#include "cohort/detail/cuda/algorithms/array_scan.hpp"
#include "cohort/detail/cuda/stream_handle.hpp"
#include "cohort/detail/partial_value.hpp"

namespace cohort::detail::gpu {

template <class T, class Op>
void array_reduce(const T* in, std::size_t n, T* out, Op op, stream_t stream) {
  gpu::device_reduce(in, n, out, op, stream);
}

template <class T, class Op>
void array_inclusive_scan(const T* in, T* out, std::size_t n, Op op, stream_t stream) {
  gpu::device_scan<true>(in, out, n, absent<T>(), op, stream);
}

template <class T, class Op>
void array_exclusive_scan(const T* in, T* out, std::size_t n, T init, Op op, stream_t stream) {
  gpu::device_scan<false>(in, out, n, partial<T>{init, true}, op, stream);
}

}  // namespace cohort::detail::gpu
