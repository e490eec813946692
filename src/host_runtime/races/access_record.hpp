// One memory access as COHORT_CHECK=races remembers it (race_check.hpp):
// who made it, where in the program, and when in the block's (and, for
// device memory, the grid's) order.
#pragma once

#include <cstdint>

namespace cohort::detail::host {

struct access_record {
  std::uintptr_t pc;     // the instruction (its hook's return address)
  std::uint32_t epoch;   // the block's interval, from its OS thread's counter; 0: none
  std::uint32_t clock;   // the thread's own clock in its warp then
  std::uint32_t block;   // the block's linear index (device memory only: shared memory is the block's own)
  std::uint16_t thread;  // the block rank
  bool atomic;
  std::uint8_t bytes;  // which bytes of its word it touched (device memory only: a cell is a word there)
};

// Device memory only: the block's place in the grid's order then.
struct device_access {
  access_record at;
  std::uint32_t released;  // how many releases (fences) the block had made before it
  std::uint32_t phase;     // how many grid, cluster and multi-grid barriers the block had passed
};

}  // namespace cohort::detail::host
