// atomic_ref, atomic, thread_scope and memory_order: the atomic references the *_update
// collectives take (docs/collectives.md describes the concept).
// Dispatches to the backend this translation unit is compiled for.
#pragma once

#include "cohort/config.hpp"

#if COHORT_BACKEND_CUDA
#include "cohort/cuda/atomic_ref.hpp"
#else
#include "cohort/host/atomic_ref.hpp"
#endif
