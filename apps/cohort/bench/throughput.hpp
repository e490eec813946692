// What the reduce and scan benches share: bandwidth metrics, and the copy of
// the same size that each variant's bandwidth is set against.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <cohort/cohort.hpp>

#include "bench/report.hpp"
#include "common/grid_size.hpp"
#include "common/timing.hpp"
#include "kernels/copy.hpp"

namespace cohort_cli {

inline constexpr unsigned copy_block_threads = 256;

inline std::vector<column> throughput_columns() {
  return {{"bytes", "bytes", column::style::integer, 0, false},
          {"bandwidth_gbps", "GB/s", column::style::fixed, 2},
          {"copy_share", "% copy", column::style::percent, 0}};
}

// Bandwidth counts the bytes the operation must move (a reduction reads its
// input and writes one value; a copy reads and writes n), over the median time.
inline void set_throughput(result_row& row, double bytes, double copy_gbps) {
  const double gbps = cohort_examples::gigabytes_per_second(bytes, cohort_examples::median_of(row.samples_us));
  row.metrics = {{"bytes", bytes}, {"bandwidth_gbps", gbps}, {"copy_share", copy_gbps > 0 ? gbps / copy_gbps : 0.0}};
}

// Copies in to a second buffer: checked once, then timed repeat times.
template <class T>
result_row measure_copy(const cohort::device_buffer<T>& in, const std::vector<T>& expected, int repeat) {
  const std::size_t n = in.size();
  const unsigned grid = cohort_examples::resident_grid(copy_kernel<T>, copy_block_threads, n);
  cohort::device_buffer<T> out(n);
  const auto run = [&] { cohort::launch<copy_kernel<T>>({grid, copy_block_threads}, out.data(), in.data(), n); };
  run();
  const bool same = out.to_host() == expected;
  result_row row{"copy",
                 n,
                 cohort_examples::launch_text(grid, copy_block_threads),
                 cohort_examples::time_us(run, repeat),
                 same,
                 same ? "output equals input" : "the copy differs from its input",
                 {}};
  const double bytes = 2.0 * static_cast<double>(n * sizeof(T));
  set_throughput(row, bytes, cohort_examples::gigabytes_per_second(bytes, cohort_examples::median_of(row.samples_us)));
  return row;
}

}  // namespace cohort_cli
