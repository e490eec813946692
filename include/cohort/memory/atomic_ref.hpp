// atomic_ref, atomic, thread_scope and memory_order: the atomic references the *_update
// collectives take (docs/collectives.md describes the concept).
#pragma once

#include "cohort/backend.hpp"

#include COHORT_BACKEND_HEADER(atomic_ref.hpp)
