// The host backend's settings, the COHORT_* environment variables, as the
// runtime reads them: each through a typed accessor over one table
// (settings.cpp), read from the environment at the first use of any and kept
// (cohort/host/settings.hpp: the table itself, the values in effect, and the
// reload that tests use). A bad value is an error at each use of its accessor,
// naming the variable, the value given and the values it takes; the other
// variables go on working.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>

#include "cohort/host/engine.hpp"

namespace cohort::detail::host {

// memcpy_async's checking mode (COHORT_CHECK): off, on with destinations
// guarded by page protection, or on with the poison alone.
enum class copy_checking : unsigned char { off, guarded, poisoned };

// COHORT_CHECK, a comma-separated list: memcpy_async's checking mode, with
// the guard (`memcpy`) or without it (`memcpy-poison`: no page protection or
// signals, for debuggers), device memory's (`memory`, memory.cpp) and data
// races' (`races`, race_check.hpp).
struct check_modes {
  copy_checking copies = copy_checking::off;
  bool memory = false;
  bool races = false;
};

namespace settings {

std::optional<std::uint64_t> shuffle_seed();  // COHORT_SCHEDULE: none for `ordered`
check_modes checks();                         // COHORT_CHECK
std::chrono::seconds watchdog();              // COHORT_WATCHDOG (0: never)
std::size_t stack_size();                     // COHORT_STACK_SIZE, as given (not rounded to pages)
unsigned workers();                           // COHORT_WORKERS
int device_count();                           // COHORT_DEVICE_COUNT
cohort::host::engine_mode engine();           // COHORT_ENGINE
bool engine_report();                         // COHORT_ENGINE_REPORT
// The virtual device's (cohort/host/virtual_device.hpp): each already checked
// against the others it must fit with (the threads per block against the warp
// size, ...), so that the error names the variable that was set.
int sm_count();                  // COHORT_SM_COUNT
int warp_size();                 // COHORT_WARP_SIZE
int max_threads_per_block();     // COHORT_MAX_THREADS_PER_BLOCK
int max_threads_per_sm();        // COHORT_MAX_THREADS_PER_SM
int max_blocks_per_sm();         // COHORT_MAX_BLOCKS_PER_SM
std::size_t shared_per_sm();     // COHORT_SHARED_PER_SM
std::size_t shared_per_block();  // COHORT_SHARED_PER_BLOCK, its default worked out
std::size_t device_memory();     // COHORT_DEVICE_MEMORY, each virtual device's, its default worked out

}  // namespace settings

}  // namespace cohort::detail::host
