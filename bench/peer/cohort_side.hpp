// cohort's side of the side-by-side benchmark.
#pragma once

#include <cohort/cohort.hpp>
#include <cstdlib>
#include <string>

template <class T>
T peer_shfl_xor(T v, int lane_mask) {
  return __shfl_xor_sync(0xffffffffu, v, lane_mask);
}

namespace side {

inline constexpr const char* name = "cohort";

// COHORT_WORKERS is read at the first launch.
inline void set_workers(unsigned n) { setenv("COHORT_WORKERS", std::to_string(n).c_str(), 1); }

template <auto Kernel, class... A>
void launch(dim3 grid, dim3 block, A... args) {
  cohort::launch<Kernel>(cohort::launch_config{grid, block}, args...);
}

}  // namespace side
