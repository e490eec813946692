// inclusive_scan, exclusive_scan and their *_update forms on every group (docs/collectives.md).
#pragma once

#include "cohort/backend.hpp"
#include "cohort/collectives/functional.hpp"

#include COHORT_BACKEND_HEADER(scan.hpp)
