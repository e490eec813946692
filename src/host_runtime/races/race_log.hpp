// What COHORT_CHECK=races found in one launch: each race once per pair of
// instructions, from whichever worker found it (race_check.cpp words them
// when the launch ends).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <vector>

#include "cohort/detail/host/language/vector_types.hpp"
#include "races/block_order.hpp"

namespace cohort::detail::host {

enum class race_kind : std::uint8_t { read_after_write, write_after_read, write_after_write };
enum class race_place : std::uint8_t { shared_variables, dynamic_shared, device };

struct race_found {
  race_kind kind;
  race_place place;
  bool earlier_atomic, later_atomic;
  std::size_t offset;      // from the start of dynamic shared memory, or of the __shared__ variables' span
  std::uintptr_t address;  // as the finding thread saw it
  uint3 block;             // the later access's
  unsigned long long block_linear, earlier_block_linear;  // the same block but in a race between blocks
  uint3 earlier_thread, later_thread;
  std::uintptr_t earlier_pc, later_pc;  // return addresses of the hooks' calls
};

struct race_log {
  static constexpr std::size_t kept = 4096;  // pairs of instructions kept; the rest are counted

  bool on = false;       // COHORT_CHECK=races
  std::uint64_t id = 0;  // distinct for every checked launch of the process
  std::mutex mutex;
  std::vector<race_found> races;
  std::size_t dropped = 0;
  grid_flags flags;  // what orders the blocks' accesses to device memory

  void add(const race_found& r) {
    std::lock_guard lock(mutex);
    if (races.size() < kept)
      races.push_back(r);
    else
      ++dropped;
  }
};

}  // namespace cohort::detail::host
