// The runtime side of grid collectives (include/cohort/host/detail/fold.hpp
// declares grid_exchange and require_cooperative).
#pragma once

#include "cohort/host/detail/collective.hpp"

namespace cohort::host::detail {

// What a block's entry names while the block waits at grid.sync() or arrives
// with grid.barrier_arrive(): a grid collective that meets it reports the mismatch.
inline constexpr collective_op grid_sync_op{"grid.sync", nullptr, nullptr};

}  // namespace cohort::host::detail
