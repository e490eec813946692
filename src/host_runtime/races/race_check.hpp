// COHORT_CHECK=races: data races between the threads of a block on shared
// memory, and between any threads of a grid on device memory
// (docs/host-backend.md, "Data races").
//
// Kernels built with the compiler's ThreadSanitizer instrumentation (the
// cohort::race_instrumentation CMake target, cohort-cxx --races) call a hook
// before every load, store and atomic (race_hooks.cpp, which replaces
// libtsan). The hook keeps a shadow of the running block's shared memory (its
// __shared__ variables and its dynamic shared memory), one cell per byte, and
// one of device memory shared by all workers (device_shadow.hpp), one cell per
// word: the last write and up to two reads, each with the thread, the source
// address of the access and when it happened. "When" is the block's interval
// (block barriers end one for every thread) and, within it, the thread's
// clock in its warp: __syncwarp, tile syncs and warp collectives join the
// clocks of the lanes they name, as a vector clock of the warp; between
// blocks, the releases and acquisitions of block_order.hpp and the grid
// barriers passed. Two accesses to one byte by two threads, at least one a
// write and not both atomic, race unless something of these orders them.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cohort/detail/host/runtime/state.hpp"
#include "races/device_shadow.hpp"

namespace cohort::detail::host {

struct launch_state;

// What a hook tests before it calls into the checker (race_check.cpp's
// race_shadow extends it): the block the shadow follows, whether its launch
// is checked, and where that block's shared memory lies.
struct race_window {
  const block_record* block = nullptr;
  std::uint64_t serial = 0;  // the block's, which tells a worker's blocks apart
  bool on = false;
  std::uintptr_t static_begin = 0, static_size = 0;  // the __shared__ variables (among the program's thread-locals)
  std::uintptr_t dynamic_begin = 0, dynamic_size = 0;

  bool following(const block_record& b) const { return block == &b && serial == b.serial; }
  bool holds(std::uintptr_t a) const { return a - dynamic_begin < dynamic_size || a - static_begin < static_size; }
};

// The calling OS thread's shadow (runtime_tls.cpp); null until a kernel
// built for race checking first touches memory on it.
extern thread_local constinit race_window* this_race_window;

// Barrier points of the runtime: every thread of the running block is ordered
// with every other (a block barrier completed, or the block arrived whole at
// a grid, cluster or multi-grid barrier).
void races_interval_ends(race_window& shadow);
inline void race_interval_ends() {
  if (race_window* w = this_race_window) [[unlikely]]
    races_interval_ends(*w);
}
// The lanes of a warp collective (or tile sync) that completed: `count` block
// ranks, rank_of(i) each, all of one warp unless the group is wider.
void races_lanes_synchronized(race_window& shadow, const unsigned* who, unsigned first, unsigned count);
inline void race_lanes_synchronized(const block_record& block, const unsigned* who, unsigned first, unsigned count) {
  if (race_window* w = this_race_window) [[unlikely]]
    if (count > 1 && w->on && w->following(block)) races_lanes_synchronized(*w, who, first, count);
}

// A load or store of `size` bytes at `address` by the running kernel thread,
// made by the instruction before return address `pc`: the hooks' one call
// into the checker for an access to the block's shared memory or to device
// memory (an access elsewhere, outside a kernel or unchecked costs the tests
// here).
void race_record(race_window& shadow, std::uintptr_t address, std::size_t size, bool write, std::uintptr_t pc);
// The same, by the first thread of a block not yet followed on this OS thread.
void race_access_in_new_block(std::uintptr_t address, std::size_t size, bool write, std::uintptr_t pc);
inline void race_access(std::uintptr_t address, std::size_t size, bool write, std::uintptr_t pc) {
  const block_record* b = current_block;
  if (b == nullptr) return;  // host code
  race_window* w = this_race_window;
  if (w == nullptr || !w->following(*b)) [[unlikely]]
    return race_access_in_new_block(address, size, write, pc);
  if (w->on && (w->holds(address) || may_be_device_memory(address))) race_record(*w, address, size, write, pc);
}

// An atomic of `size` bytes at `address` (`order`: std::memory_order's
// value): race_atomic_starts before it is carried out (it is recorded, and a
// release publishes), race_atomic_ended after (a read acquires).
void race_atomic_starts(std::uintptr_t address, std::size_t size, bool writes, int order, std::uintptr_t pc);
void race_atomic_ended(std::uintptr_t address, bool reads);
// A fence by the running kernel thread.
void race_fence(int order);

// Called by the instrumentation's module constructors (race_hooks.cpp's
// __tsan_init): some code of the program is built for race checking. Without
// any, COHORT_CHECK=races refuses to launch rather than check nothing.
void race_instrumentation_loaded();
// Throws, naming `kernel`, where no code of the program is built for race checking.
void require_race_instrumentation(const void* kernel);

// After a launch with race checking: the races its blocks found, worded as
// its error (null when there were none).
bool races_found(const launch_state& launch);
[[noreturn]] void throw_race_report(const launch_state& launch);

}  // namespace cohort::detail::host
