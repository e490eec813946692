// The kernel side of grid collectives' exchange between blocks (the runtime
// side is level_exchange in src/host_runtime/synchronization/barriers.cpp): each block publishes an entry and
// reads every block's once all have, through the launch's grid barrier.
#pragma once

#include <cstddef>
#include <source_location>

#include "cohort/detail/host/collectives/collective.hpp"

namespace cohort::detail::host {

// One block's entry in a grid collective's exchange (src/host_runtime/synchronization/barriers.cpp).
struct alignas(64) grid_entry {
  const collective_op* op;    // which collective the block is in: grid.sync() has its own
  std::source_location site;  // where, for messages
  std::byte value[max_exchange_bytes];
};

// Publishes the calling block's `value` as its entry for `op` and waits until
// every block of the grid has published one (a grid barrier phase); returns
// the entries, indexed by block rank. Raises the launch's error for a block
// in another grid collective, or one that exited.
const grid_entry* grid_exchange(const collective_op& op, std::source_location site, const void* value,
                                std::size_t size);
// Ends the launch with not_cooperative unless it was made with launch_cooperative.
void require_cooperative(const char* collective, std::source_location where);

}  // namespace cohort::detail::host
