// The multi-device barrier NVIDIA's CUDA 13 samples write in place of the
// removed multi_grid_group (conjugateGradientMultiDeviceCG's), as the rival
// of cohort's multi_grid.sync(): the grid's barrier (NVIDIA's grid.sync()),
// then one thread of each grid meets the others at a flag per grid after the
// first, in the first device's memory (peer access) or in mapped pinned host
// memory: grid 0's waits until every flag is set and clears them, each other
// grid's sets its own and waits until it is cleared; then the grid's barrier
// again. The flags end every barrier cleared, so they are zeroed once.
#pragma once

#include <cooperative_groups.h>
#include <cuda/atomic>

namespace nvidia_rivals {

struct flag_multi_grid {
  unsigned* flags;  // grids - 1 of them
  unsigned rank, grids;

  __device__ void sync() const {
    using flag = cuda::atomic_ref<unsigned, cuda::thread_scope_system>;
    const cooperative_groups::grid_group grid = cooperative_groups::this_grid();
    grid.sync();
    if (grid.thread_rank() == 0) {
      if (rank == 0) {
        for (unsigned i = 0; i + 1 < grids; ++i)
          while (flag(flags[i]).load(cuda::memory_order_acquire) == 0) {
          }
        for (unsigned i = 0; i + 1 < grids; ++i) flag(flags[i]).store(0, cuda::memory_order_release);
      } else {
        flag(flags[rank - 1]).store(1, cuda::memory_order_release);
        while (flag(flags[rank - 1]).load(cuda::memory_order_acquire) != 0) {
        }
      }
    }
    grid.sync();
  }
};

}  // namespace nvidia_rivals
