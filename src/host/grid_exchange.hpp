// The runtime side of grid collectives (include/cohort/detail/host/fold.hpp
// declares grid_exchange and require_cooperative).
#pragma once

#include "cohort/detail/host/collective.hpp"

namespace cohort::detail::host {

// What a block's entry names while the block waits at grid.sync() or arrives
// with grid.barrier_arrive(): a grid collective that meets it reports the mismatch.
inline constexpr collective_op grid_sync_op{"grid.sync", nullptr, nullptr};

}  // namespace cohort::detail::host
