// invoke_one and invoke_one_broadcast on every group (docs/collectives.md).
#pragma once

#include "cohort/backend.hpp"

#include COHORT_BACKEND_HEADER(invoke.hpp)
