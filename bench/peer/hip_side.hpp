// HIP-CPU's side of the side-by-side benchmark: its launches are queued on a
// stream, so each is followed by a synchronization, as cohort's launch returns
// once the grid has run.
#pragma once

#include <hip/hip_runtime.h>
#include <tbb/global_control.h>

#include <memory>

template <class T>
T peer_shfl_xor(T v, int lane_mask) {
  return __shfl_xor(v, lane_mask, 32);
}

namespace side {

inline constexpr const char* name = "hip-cpu";

// HIP-CPU runs blocks with the standard parallel algorithms, on TBB.
inline void set_workers(unsigned n) {
  static std::unique_ptr<tbb::global_control> limit;
  limit = std::make_unique<tbb::global_control>(tbb::global_control::max_allowed_parallelism, n);
}

template <auto Kernel, class... A>
void launch(dim3 grid, dim3 block, A... args) {
  hipLaunchKernelGGL(Kernel, grid, block, 0, nullptr, args...);
  (void)hipDeviceSynchronize();
}

}  // namespace side
