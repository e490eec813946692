// docs/api.md lists the API.
#pragma once

#include "cohort/backend.hpp"

#include COHORT_BACKEND_HEADER(memory.hpp)
