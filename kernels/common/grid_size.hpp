// Grid sizes from the occupancy calculator, as a cooperative reduction sizes its
// grid: blocks per SM for this kernel and block shape, times the SM count.
#pragma once

#include <algorithm>
#include <cstddef>

#include <cohort/cohort.hpp>

namespace cohort_kernels {

// The grid for a grid-stride kernel over n elements: a thread per element if
// that few blocks suffice, otherwise every block that can be resident at once
// (more would only queue behind the first wave; each thread then strides).
// A cooperative launch of this grid is always within capacity.
template <class... P>
unsigned resident_grid(void (*kernel)(P...), unsigned block_threads, std::size_t n, std::size_t shared_bytes = 0) {
  const std::size_t wanted = (n + block_threads - 1) / block_threads;
  const std::size_t resident =
      static_cast<std::size_t>(cohort::max_cooperative_grid(kernel, static_cast<int>(block_threads), shared_bytes));
  return static_cast<unsigned>(std::max<std::size_t>(1, std::min(wanted, resident)));
}

}  // namespace cohort_kernels

#include <string>

namespace cohort_kernels {

// "16x256": a launch's grid and block, as reports print it.
inline std::string launch_text(unsigned grid, unsigned block) {
  return std::to_string(grid) + "x" + std::to_string(block);
}

}  // namespace cohort_kernels
