// COHORT_CHECK=memory: device memory's checking mode (memory.cpp).
#pragma once

#include <string>

namespace cohort::detail::host {

struct launch_state;

bool memory_checking();
// "offset 16 of the device allocation of 1024 bytes at 0x...", for a report.
std::string device_place(const void* p);
// Throws the damage a free_device found (it cannot throw itself: it runs in destructors).
void raise_pending_memory_fault();
// Frees as free_device does, but throws the damage it finds (errc::memory_fault)
// rather than printing it and leaving it for the next call: for a caller that
// reports it itself (cudaFree).
void release_device_raising_damage(void* p);
// Throws errc::memory_fault for the first allocation whose redzones a launch overwrote.
void check_redzones_after(const launch_state& launch);

}  // namespace cohort::detail::host
