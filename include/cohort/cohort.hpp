// The umbrella header: kernel language, launch API, device memory, groups and
// their collectives.
#pragma once

#include "cohort/algorithms/algorithms.hpp"
#include "cohort/backend.hpp"
#include "cohort/collectives/functional.hpp"
#include "cohort/collectives/invoke.hpp"
#include "cohort/collectives/memcpy_async.hpp"
#include "cohort/collectives/multi_grid.hpp"
#include "cohort/collectives/reduce.hpp"
#include "cohort/collectives/scan.hpp"
#include "cohort/errors.hpp"
#include "cohort/groups/groups.hpp"
#include "cohort/kernel_language.hpp"
#include "cohort/launch/cluster_occupancy.hpp"
#include "cohort/launch/device.hpp"
#include "cohort/launch/launch.hpp"
#include "cohort/launch/launch_config.hpp"
#include "cohort/launch/multi_device.hpp"
#include "cohort/memory/atomic_ref.hpp"
#include "cohort/memory/device_buffer.hpp"
#include "cohort/memory/device_memory.hpp"
