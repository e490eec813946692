// The umbrella header: kernel language, launch API, device memory, groups and
// their collectives.
#pragma once

#include "cohort/atomic_ref.hpp"
#include "cohort/config.hpp"
#include "cohort/device.hpp"
#include "cohort/errors.hpp"
#include "cohort/functional.hpp"
#include "cohort/groups.hpp"
#include "cohort/groups/cluster_group.hpp"
#include "cohort/groups/multi_grid_group.hpp"
#include "cohort/invoke.hpp"
#include "cohort/kernel_language.hpp"
#include "cohort/launch.hpp"
#include "cohort/launch_config.hpp"
#include "cohort/launch/cluster_occupancy.hpp"
#include "cohort/launch/multi_device.hpp"
#include "cohort/memcpy_async.hpp"
#include "cohort/memory.hpp"
#include "cohort/reduce.hpp"
#include "cohort/scan.hpp"
