// Summaries of timing samples, and bandwidth from bytes and time. Host code
// only: the report writers use it without the device API.
#pragma once

#include <algorithm>
#include <cstddef>
#include <numeric>
#include <vector>

namespace cohort_kernels {

inline double mean_of(const std::vector<double>& v) {
  return v.empty() ? 0.0 : std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
}

inline double min_of(const std::vector<double>& v) { return v.empty() ? 0.0 : *std::min_element(v.begin(), v.end()); }

// The median resists the occasional slow sample (a page fault, a preempted
// worker) that would drag a mean.
inline double median_of(std::vector<double> v) {
  if (v.empty()) return 0.0;
  const auto mid = v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2);
  std::nth_element(v.begin(), mid, v.end());
  if (v.size() % 2) return *mid;
  return (*mid + *std::max_element(v.begin(), mid)) / 2;
}

// Bytes per microsecond are megabytes per second; GB/s is that over 1000.
inline double gigabytes_per_second(double bytes, double microseconds) {
  return microseconds > 0 ? bytes / microseconds / 1e3 : 0.0;
}

}  // namespace cohort_kernels
