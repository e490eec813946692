// The split-phase barrier behind libcu++'s cuda::barrier and cuda::pipeline
// on the host backend: an expected count, a pending count and a phase number.
// A waiter polls the phase through cohort's spin detection, which lets the
// block's other threads (fibers, not preempted) run and arrive, and turns a
// barrier that can never complete into the launch's watchdog error rather
// than a hang.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <source_location>

#include <cohort/cohort.hpp>

namespace cohort::compat {

class phase_barrier {
 public:
  using token = std::uint64_t;

  void reset(std::ptrdiff_t expected) {
    expected_.store(expected, std::memory_order_relaxed);
    pending_.store(expected, std::memory_order_relaxed);
    phase_.store(0, std::memory_order_release);
  }

  // Counts `update` arrivals; the last arrival of the phase calls `complete`
  // (before anyone is released) and starts the next phase.
  template <class Complete>
  token arrive(std::ptrdiff_t update, Complete&& complete) {
    const token phase = phase_.load(std::memory_order_acquire);
    if (pending_.fetch_sub(update, std::memory_order_acq_rel) == update) {
      complete();
      cohort::detail::host::races_block_synchronized();
      pending_.store(expected_.load(std::memory_order_relaxed), std::memory_order_relaxed);
      phase_.store(phase + 1, std::memory_order_release);
    }
    return phase;
  }

  // One fewer arrival expected from the next phase on, and this one's arrival.
  template <class Complete>
  token arrive_and_drop(Complete&& complete) {
    expected_.fetch_sub(1, std::memory_order_relaxed);
    return arrive(1, complete);
  }

  bool done(token phase) const { return phase_.load(std::memory_order_acquire) != phase; }

  void wait(token phase, std::source_location where = std::source_location::current()) const {
    while (cohort::detail::host::observed<1>(&phase_, phase_.load(std::memory_order_acquire), where) == phase) {
    }
  }

  std::ptrdiff_t expected() const { return expected_.load(std::memory_order_relaxed); }

 private:
  std::atomic<std::ptrdiff_t> expected_{0};
  std::atomic<std::ptrdiff_t> pending_{0};
  std::atomic<token> phase_{0};
};

}  // namespace cohort::compat
