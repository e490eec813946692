// The runtime's one record of a block: the scheduler's part (the kernel-visible
// record, fibers, ready queue) extended by each mechanism's part. One per
// worker, reused block after block (worker.cpp).
#pragma once

#include "cohort/detail/host/collectives/grid_exchange.hpp"
#include "scheduling/scheduler.hpp"
#include "synchronization/async_copy.hpp"
#include "synchronization/barriers.hpp"
#include "synchronization/rendezvous.hpp"

namespace cohort::detail::host {

struct cluster_slot;

struct block_runtime : scheduled_block {
  unsigned long long linear = 0;  // the block's linear index in its grid
  block_barriers barriers;
  cluster_slot* cluster = nullptr;  // the slot running the block's cluster; none in a launch without clusters
  collective_state collectives;     // warp collectives and coalesced groups
  copy_state copies;                // memcpy_async's copies in flight, in the checking mode
  grid_entry solo_exchange;         // a cluster collective's exchange in a launch without clusters
};

// The block of the running thread, its counts settled: every entry from
// kernel code into the runtime goes through here.
inline block_runtime& current_runtime() { return static_cast<block_runtime&>(current_scheduled()); }

}  // namespace cohort::detail::host
