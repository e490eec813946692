// reduce, reduce_update_async and reduce_store_async on every group (docs/collectives.md).
#pragma once

#include "cohort/backend.hpp"
#include "cohort/collectives/functional.hpp"

#include COHORT_BACKEND_HEADER(reduce.hpp)
