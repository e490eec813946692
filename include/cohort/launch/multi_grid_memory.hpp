// Where the grids of a multi-device launch meet: the memory of the counters
// their multi_grid.sync() waits on. On CUDA, `automatic` puts them in the
// first grid's device memory when every other device of the launch has peer
// access to it (a peer's atomics then travel over NVLink or PCIe as stores to
// that memory) and in mapped pinned host memory, which every device reaches,
// otherwise; `peer` and `pinned_host` ask for one of the two, to compare them
// or to keep the barrier off a busy link. The host backend's virtual devices
// share one memory, where every choice is the same.
#pragma once

#include <string>

#include "cohort/errors.hpp"

namespace cohort {

enum class multi_grid_memory { automatic, peer, pinned_host };

inline const char* to_string(multi_grid_memory m) {
  switch (m) {
    case multi_grid_memory::automatic:
      return "automatic";
    case multi_grid_memory::peer:
      return "peer";
    case multi_grid_memory::pinned_host:
      return "pinned_host";
  }
  return "unknown";
}

namespace detail {

inline void check_multi_grid_memory(multi_grid_memory m) {
  if (m != multi_grid_memory::automatic && m != multi_grid_memory::peer && m != multi_grid_memory::pinned_host)
    throw error(errc::invalid_configuration,
                "launch_cooperative_multi_device: barrier memory " + std::to_string(static_cast<int>(m)) +
                    " is not a cohort::multi_grid_memory; pass automatic, peer or pinned_host");
}

// Whether the barrier goes in the first grid's device memory (`owner`'s):
// `without_peer` is the first device of the launch that cannot reach it, or -1.
inline bool multi_grid_barrier_in_peer_memory(multi_grid_memory asked, int owner, int without_peer) {
  if (asked == multi_grid_memory::pinned_host) return false;
  if (without_peer < 0) return true;
  if (asked == multi_grid_memory::peer)
    throw error(errc::invalid_configuration,
                "launch_cooperative_multi_device: multi_grid_memory::peer puts the barrier in device " +
                    std::to_string(owner) + "'s memory, but device " + std::to_string(without_peer) +
                    " has no peer access to it (`cohort doctor` lists which devices reach each other); pass "
                    "multi_grid_memory::automatic or pinned_host");
  return false;
}

}  // namespace detail

}  // namespace cohort
