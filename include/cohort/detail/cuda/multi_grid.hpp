// The CUDA backend's multi-grid primitives. A multi-device launch
// (multi_device_launch.hpp) hands each device's grid its context through a
// __device__ variable of the translation unit that launches it (each device
// has its own copy; the kernel must be defined in that translation unit, as
// it is when launch and kernel share a file). The grids meet at a barrier on
// system-scope atomics in the first grid's device memory where every device
// has peer access to it, else in mapped pinned host memory, which every device
// reaches: multi_grid.sync() is the grid's barrier, block 0's arrival at the
// system barrier, and the grid's barrier again (the grid's barrier alone where
// the launch has one grid).
#pragma once

#include <cuda/atomic>
#include <cuda_runtime.h>

#include "cohort/backend.hpp"
#include "cohort/detail/cuda/grid_barrier.hpp"
#include "cohort/detail/grid_geometry.hpp"

namespace cohort::detail::gpu {

inline constexpr unsigned max_multi_grids = 64;

// In peer device memory or mapped pinned host memory (multi_device_launch.hpp).
struct multi_grid_shared {
  alignas(128) unsigned barrier;  // system_barrier's word
  alignas(128) unsigned char slots[max_multi_grids][32];
};

struct multi_grid_context {
  multi_grid_shared* shared;
  unsigned grid_rank;
  unsigned grids;
  unsigned long long first_thread;
  unsigned long long total_threads;
  int valid;
};

template <int = 0>
static __device__ multi_grid_context multi_grid_context_of_launch;

__device__ __forceinline__ const multi_grid_context& multi_grid_here() { return multi_grid_context_of_launch<>; }

__device__ __forceinline__ bool multi_grid_valid() { return multi_grid_here().valid != 0; }

// The devices' part, one thread per grid, on one word: the phase's arrivals
// in its low bits, the phase's generation above them. Each grid adds what the
// grid barrier's counters take (arrival_add: grid 0 system_phase - (grids - 1),
// every other grid 1), so that only the last arrival, whichever grid makes it,
// carries the word into the next generation with no arrivals counted:
// one atomic per grid and barrier, nothing to reset, and the grid that
// completes the phase knows it from its own add; the others poll for the
// generation to change. Each poll is a round trip to the barrier's memory,
// which paces it: no pause. The add is a system-scope acq_rel and the polls
// acquires, all cumulative: the writes this thread has seen through its
// grid's barrier reach the threads of every device that see the new
// generation, with no fence of its own.
inline constexpr unsigned system_phase = 1u << 8;  // above max_multi_grids - 1 arrivals
static_assert(max_multi_grids <= system_phase);

__device__ inline void system_barrier(multi_grid_shared* s, unsigned grid_rank, unsigned grids) {
  cuda::atomic_ref<unsigned, cuda::thread_scope_system> word(s->barrier);
  const unsigned add = arrival_add(grid_rank == 0, grids, system_phase);
  const unsigned before = word.fetch_add(add, cuda::memory_order_acq_rel), generation = before / system_phase;
  if ((before + add) / system_phase != generation) return;  // the last arrival
  while (word.load(cuda::memory_order_acquire) / system_phase == generation) {
  }
}

// Outside a multi-device launch it traps without a message, as grid.sync()
// does outside a cooperative one (grid_barrier.hpp's trap_not_cooperative says
// why: a message costs every barrier of the kernel); the host's error for the
// trap names both causes.
__device__ inline void multi_grid_sync(const grid_barrier& grid, call_site) {
  const multi_grid_context& c = multi_grid_here();
  if (!c.valid) trap_not_cooperative();
  grid.sync();
  if (c.grids == 1) return;
  if (is_block_leader() && block_rank_in_grid() == 0) system_barrier(c.shared, c.grid_rank, c.grids);
  grid.sync();
}

__device__ __forceinline__ unsigned multi_grid_rank() { return multi_grid_valid() ? multi_grid_here().grid_rank : 0; }
__device__ __forceinline__ unsigned multi_grid_count() { return multi_grid_valid() ? multi_grid_here().grids : 1; }
__device__ __forceinline__ unsigned long long multi_grid_thread_rank() {
  return (multi_grid_valid() ? multi_grid_here().first_thread : 0) + grid_thread_rank();
}
__device__ __forceinline__ unsigned long long multi_grid_thread_count() {
  return multi_grid_valid() ? multi_grid_here().total_threads : grid_num_threads();
}
__device__ __forceinline__ void* multi_grid_slot(unsigned grid) {
  const multi_grid_context& c = multi_grid_here();
  if (!c.valid) trap_not_cooperative();
  return c.shared->slots[grid];
}

}  // namespace cohort::detail::gpu
