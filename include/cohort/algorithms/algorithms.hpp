// Whole-array grid algorithms and their host-callable device forms (docs/algorithms.md).
#pragma once

#include "cohort/algorithms/device_algorithms.hpp"
#include "cohort/algorithms/grid_algorithms.hpp"
