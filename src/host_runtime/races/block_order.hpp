// COHORT_CHECK=races between the blocks of a grid: what orders one block's
// accesses to device memory before another's (docs/host-backend.md, "Data
// races", "What orders two accesses").
//
// Each block counts its releases: a fence (__threadfence(), a release or
// stronger std/cuda atomic_thread_fence) or an atomic with release order or
// stronger. An access is stamped with the count before it. An atomic that
// writes a location publishes, on that location's flag, what its block has
// released: its own count and what it had acquired, a vector clock kept
// sparse (a block that never acquired has one entry). An atomic that reads a
// location acquires what the location's flag holds. A block's access is
// ordered before another block's when the reader acquired a count above the
// access's stamp, or when a grid (cluster, multi-grid) barrier lies between
// them. Kernel boundaries order everything (device_shadow.hpp).
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

namespace cohort::detail::host {

// Block (linear index) -> releases of it known: sorted by block.
class block_clock {
 public:
  std::uint32_t of(std::uint32_t block) const;
  void raise(std::uint32_t block, std::uint32_t releases);
  void join(const block_clock& other);
  bool empty() const { return entries_.empty(); }
  void clear() { entries_.clear(); }

 private:
  std::vector<std::pair<std::uint32_t, std::uint32_t>> entries_;
};

// A launch's flags: what has been published at each location of device
// memory that an atomic wrote.
class grid_flags {
 public:
  void publish(std::uintptr_t address, const block_clock& released);
  // Joins into `into` what `address`'s flag holds.
  void acquire(std::uintptr_t address, block_clock& into);

 private:
  std::mutex mutex_;
  std::atomic<bool> any_{false};  // nothing to acquire until something is published
  std::unordered_map<std::uintptr_t, block_clock> flags_;
};

}  // namespace cohort::detail::host
