// The host backend's whole-array algorithms behind device_reduce and the
// device scans (cohort/algorithms/device_algorithms.hpp): on the host, device
// memory is host memory, so each is a plain loop over the array. Folds run in
// index order, so any associative operator gives the sequential answer.
#pragma once

#include <cstddef>

namespace cohort::detail::host {

// *out = in[0] op in[1] op ... op in[n - 1]; n == 0 leaves *out unwritten.
template <class T, class Op>
void host_reduce(const T* in, std::size_t n, T* out, Op op) {
  if (n == 0) return;
  T total = in[0];
  for (std::size_t i = 1; i < n; ++i) total = op(total, in[i]);
  *out = total;
}

// out[i] = in[0] op ... op in[i]; out may be in.
template <class T, class Op>
void host_inclusive_scan(const T* in, T* out, std::size_t n, Op op) {
  if (n == 0) return;
  T running = in[0];
  out[0] = running;
  for (std::size_t i = 1; i < n; ++i) out[i] = running = op(running, in[i]);
}

// out[i] = init op in[0] op ... op in[i - 1], out[0] = init; out may be in.
template <class T, class Op>
void host_exclusive_scan(const T* in, T* out, std::size_t n, T init, Op op) {
  T running = init;
  for (std::size_t i = 0; i < n; ++i) {
    const T x = in[i];
    out[i] = running;
    running = op(running, x);
  }
}

}  // namespace cohort::detail::host
