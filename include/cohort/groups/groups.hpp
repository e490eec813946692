// The groups: thread_group (the base of every group), thread_block,
// grid_group, cluster_group, multi_grid_group, thread_block_tile,
// coalesced_group and their partitions, each written once over its backend's
// primitives. docs/api.md lists the API.
#pragma once

#include "cohort/groups/cluster_group.hpp"
#include "cohort/groups/coalesced_group.hpp"
#include "cohort/groups/grid_group.hpp"
#include "cohort/groups/lane_mask.hpp"
#include "cohort/groups/multi_grid_group.hpp"
#include "cohort/groups/partitions.hpp"
#include "cohort/groups/thread_block.hpp"
#include "cohort/groups/thread_block_tile.hpp"
#include "cohort/groups/thread_group.hpp"
