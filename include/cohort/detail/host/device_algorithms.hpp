// The whole-array algorithms' backend primitives on the host: the native
// algorithms of array_algorithms.hpp, finished when they return (a stream
// orders nothing on the host).
#pragma once

#include <cstddef>

#include "cohort/detail/host/algorithms/array_algorithms.hpp"
#include "cohort/detail/host/stream_handle.hpp"

namespace cohort::detail::host {

template <class T, class Op>
void array_reduce(const T* in, std::size_t n, T* out, Op op, stream_t) {
  host_reduce(in, n, out, op);
}

template <class T, class Op>
void array_inclusive_scan(const T* in, T* out, std::size_t n, Op op, stream_t) {
  host_inclusive_scan(in, out, n, op);
}

template <class T, class Op>
void array_exclusive_scan(const T* in, T* out, std::size_t n, T init, Op op, stream_t) {
  host_exclusive_scan(in, out, n, init, op);
}

}  // namespace cohort::detail::host
