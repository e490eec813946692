// The host backend's whole-array reduce and scans (device_reduce,
// device_inclusive_scan, device_exclusive_scan): plain loops over contiguous
// parts of the array, one part per worker thread, rather than a grid of
// fibers. A CPU core is fastest streaming through memory it owns with a
// vectorized loop; a grid-stride kernel makes every GPU thread stride across
// the whole array instead, one scalar element per fiber (docs/host-backend.md).
//
// The operator must be associative. For cohort's own operators (plus, less,
// greater, bit_and, bit_or, bit_xor), which are also commutative, a part is
// reduced in interleaved lanes that the compiler turns into vector
// instructions; any other operator is applied strictly left to right.
#pragma once

#include <algorithm>
#include <cstddef>
#include <type_traits>
#include <vector>

#include "cohort/collectives/functional.hpp"
#include "cohort/detail/host/algorithms/parallel_parts.hpp"

namespace cohort::detail::host {

// Whether `Op` may be applied to T in any order: cohort's commutative operators.
template <class Op, class T>
inline constexpr bool reorderable = std::is_same_v<Op, cohort::plus<T>> || std::is_same_v<Op, cohort::less<T>> ||
                                    std::is_same_v<Op, cohort::greater<T>> || std::is_same_v<Op, cohort::bit_and<T>> ||
                                    std::is_same_v<Op, cohort::bit_or<T>> || std::is_same_v<Op, cohort::bit_xor<T>>;

// Below this many elements per part a part is not worth a thread.
inline constexpr std::size_t min_part_elements = std::size_t{1} << 15;

inline unsigned parts_for(std::size_t n) {
  const std::size_t by_size = std::max<std::size_t>(1, n / min_part_elements);
  return static_cast<unsigned>(std::min<std::size_t>(worker_threads(), by_size));
}

inline std::size_t part_begin(std::size_t n, unsigned parts, unsigned part) {
  return n / parts * part + std::min<std::size_t>(part, n % parts);
}

// op over in[0, n), n >= 1.
template <class T, class Op>
T reduce_range(const T* in, std::size_t n, Op op) {
  if constexpr (reorderable<Op, T>) {
    // Four 256-bit vectors' worth of independent accumulators: enough to
    // hide the latency of a floating-point add.
    constexpr std::size_t lanes = std::max<std::size_t>(4, 128 / sizeof(T));
    if (n >= 2 * lanes) {
      T acc[lanes];
      for (std::size_t j = 0; j < lanes; ++j) acc[j] = in[j];
      std::size_t i = lanes;
      for (; i + lanes <= n; i += lanes)
        for (std::size_t j = 0; j < lanes; ++j) acc[j] = op(acc[j], in[i + j]);
      for (; i < n; ++i) acc[0] = op(acc[0], in[i]);
      for (std::size_t width = lanes / 2; width > 0; width /= 2)
        for (std::size_t j = 0; j < width; ++j) acc[j] = op(acc[j], acc[j + width]);
      return acc[0];
    }
  }
  T acc = in[0];
  for (std::size_t i = 1; i < n; ++i) acc = op(acc, in[i]);
  return acc;
}

// *out = op over in[0, n); with n == 0, the operator's identity
// (cohort::detail::identity_of: T{} for an operator it does not know).
template <class T, class Op>
void host_reduce(const T* in, std::size_t n, T* out, Op op) {
  if (n == 0) {
    *out = cohort::detail::identity_of<Op, T>();
    return;
  }
  const unsigned parts = parts_for(n);
  if (parts == 1) {
    *out = reduce_range(in, n, op);
    return;
  }
  std::vector<T> partial(parts);
  for_each_part(parts, [&](unsigned p) {
    const std::size_t b = part_begin(n, parts, p);
    partial[p] = reduce_range(in + b, part_begin(n, parts, p + 1) - b, op);
  });
  *out = reduce_range(partial.data(), parts, op);
}

// The scans: each part's total first (in parallel), then each part scans
// from the combined totals of the parts before it. The input is read twice
// and the output written once; in == out is allowed.
template <class T, class Op, class ScanPart>
void scan_in_parts(const T* in, std::size_t n, Op op, ScanPart scan_part) {
  const unsigned parts = parts_for(n);
  if (parts == 1) {
    scan_part(0, n, static_cast<const T*>(nullptr));
    return;
  }
  std::vector<T> total(parts);
  for_each_part(parts, [&](unsigned p) {
    if (p + 1 == parts) return;  // no part follows the last
    const std::size_t b = part_begin(n, parts, p);
    total[p] = reduce_range(in + b, part_begin(n, parts, p + 1) - b, op);
  });
  // total[p] becomes op over every part before p+1.
  for (unsigned p = 1; p + 1 < parts; ++p) total[p] = op(total[p - 1], total[p]);
  for_each_part(parts, [&](unsigned p) {
    const std::size_t b = part_begin(n, parts, p);
    scan_part(b, part_begin(n, parts, p + 1), p == 0 ? nullptr : &total[p - 1]);
  });
}

// out[i] = in[0] op ... op in[i].
template <class T, class Op>
void host_inclusive_scan(const T* in, T* out, std::size_t n, Op op) {
  if (n == 0) return;
  scan_in_parts(in, n, op, [&](std::size_t b, std::size_t e, const T* before) {
    T carry = before ? op(*before, in[b]) : in[b];
    out[b] = carry;
    for (std::size_t i = b + 1; i < e; ++i) out[i] = carry = op(carry, in[i]);
  });
}

// out[0] = init, out[i] = init op in[0] op ... op in[i-1].
template <class T, class Op>
void host_exclusive_scan(const T* in, T* out, std::size_t n, T init, Op op) {
  if (n == 0) return;
  scan_in_parts(in, n, op, [&](std::size_t b, std::size_t e, const T* before) {
    T carry = before ? op(init, *before) : init;
    for (std::size_t i = b; i < e; ++i) {
      const T next = op(carry, in[i]);  // read before out[i] is written: in == out is allowed
      out[i] = carry;
      carry = next;
    }
  });
}

}  // namespace cohort::detail::host
