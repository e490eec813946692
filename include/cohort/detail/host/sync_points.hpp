// The runtime's barrier entry points that kernel-side group code calls.
// Each takes the call site so that a diagnostic can point at it.
#pragma once

#include <cstdint>
#include <source_location>

namespace cohort::detail::host {

std::uint64_t block_arrive(std::source_location where);
void block_wait(std::uint64_t phase, std::source_location where);
void block_sync(std::source_location where);

std::uint64_t grid_arrive(std::source_location where);
void grid_wait(std::uint64_t phase, std::source_location where);
void grid_sync(std::source_location where);

}  // namespace cohort::detail::host
