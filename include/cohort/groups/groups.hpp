// The groups: thread_block, grid_group, thread_block_tile, coalesced_group,
// the type-erased thread_group, and their partitions. docs/api.md lists the API.
#pragma once

#include "cohort/backend.hpp"
#include "cohort/groups/lane_mask.hpp"

#include COHORT_BACKEND_HEADER(groups.hpp)
