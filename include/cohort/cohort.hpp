// The umbrella header: kernel language, launch API, device memory and groups.
#pragma once

#include "cohort/config.hpp"
#include "cohort/device.hpp"
#include "cohort/errors.hpp"
#include "cohort/groups.hpp"
#include "cohort/kernel_language.hpp"
#include "cohort/launch.hpp"
#include "cohort/launch_config.hpp"
#include "cohort/memory.hpp"
