// The runtime's barrier entry points that kernel-side group code calls.
// Each takes the call site so that a diagnostic can point at it.
#pragma once

#include <cstdint>
#include <source_location>

namespace cohort::detail::host {

// What an arrival token holds once a barrier_wait has spent it: a token is
// good for one wait, and a second wait on it is an error (it would wait on a
// phase long complete, and go on without waiting at all).
inline constexpr std::uint64_t spent_arrival_token = ~std::uint64_t{0};
// Spends `token` (a phase from an arrive) and returns the phase.
inline std::uint64_t spend(std::uint64_t& token) {
  const std::uint64_t phase = token;
  token = spent_arrival_token;
  return phase;
}

std::uint64_t block_arrive(std::source_location where);
void block_wait(std::uint64_t phase, std::source_location where);
void block_sync(std::source_location where);

std::uint64_t grid_arrive(std::source_location where);
void grid_wait(std::uint64_t phase, std::source_location where);
void grid_sync(std::source_location where);

// A synchronization the runtime does not make itself (a cuda::barrier's phase
// completing: compat/include/cohort_compat/phase_barrier.hpp) orders every
// thread of the running block, for COHORT_CHECK=races (src/host_runtime/races/race_check.hpp).
void races_block_synchronized();

}  // namespace cohort::detail::host
