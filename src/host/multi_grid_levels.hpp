// The multi-grid barrier's level description and its stall resolution (src/host/multi_grid.cpp).
#pragma once

#include <optional>

#include "spanning_barrier.hpp"

namespace cohort::detail::host {

struct block_runtime;

extern const spanning_level multi_grid_level;
std::optional<bool> resolve_multi_grid_stall(block_runtime& rt);

}  // namespace cohort::detail::host
