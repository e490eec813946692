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
//
// The system barrier takes no atomic read-modify-write: on most machines the
// GPUs' atomics on pinned host memory are not atomic with respect to one
// another (cudaDevAttrHostNativeAtomicSupported is 0 on PCIe hosts), nor
// between GPUs over PCIe peer mappings, and four H200s adding to one host word
// lost arrivals and hung. Each grid writes only its own word and reads the
// others', which plain stores and loads do correctly over any link.
#pragma once

#include <cuda_runtime.h>
#include <cuda/atomic>

#include "cohort/backend.hpp"
#include "cohort/detail/cuda/runtime/grid_barrier.hpp"
#include "cohort/detail/grid_geometry.hpp"

namespace cohort::detail::gpu {

inline constexpr unsigned max_multi_grids = 64;

// In peer device memory or mapped pinned host memory (multi_device_launch.hpp).
struct multi_grid_shared {
  // system_barrier's words: row grids - 1 for launches of that many grids,
  // word r of it grid r's count of barriers reached.
  alignas(128) unsigned arrivals[max_multi_grids][max_multi_grids];
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

// The devices' part, one thread per grid. Grid r of a launch of `grids` grids
// counts the barriers it has reached in word r of row grids - 1 (nobody else
// writes it), and waits until every grid's word of the row has reached the
// same count. Every launch of that many grids leaves its row's words equal
// (each barrier ends with all of them at one count), so a launch, however
// many barriers the one before it made, starts from consistent words, and a
// launch issued while the previous one's grids still poll cannot mislead them
// (a word only grows, and a grid is never two barriers ahead of another).
// Launches of other grid counts use other rows, which they leave alone. The
// store is a system-scope release and the polls relaxed loads, in flight
// together, followed by an acquire fence: cumulative, so the writes this
// thread has seen through its grid's barrier reach the threads of every
// device that see its count. Each poll is a round trip to the barrier's
// memory, which paces it: no pause.
__device__ inline void system_barrier(multi_grid_shared* s, unsigned grid_rank, unsigned grids) {
  unsigned* const row = s->arrivals[grids - 1];
  const unsigned reached =
      cuda::atomic_ref<unsigned, cuda::thread_scope_system>(row[grid_rank]).load(cuda::memory_order_relaxed) + 1;
  cuda::atomic_ref<unsigned, cuda::thread_scope_system>(row[grid_rank]).store(reached, cuda::memory_order_release);
  for (bool all = false; !all;) {
    all = true;
    for (unsigned g = 0; g < grids; ++g) {
      const unsigned count =
          cuda::atomic_ref<unsigned, cuda::thread_scope_system>(row[g]).load(cuda::memory_order_relaxed);
      all &= static_cast<int>(count - reached) >= 0;
    }
  }
  cuda::atomic_thread_fence(cuda::memory_order_acquire, cuda::thread_scope_system);
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
