// Turns CUDA runtime error codes into cohort::error. Every host call of the
// CUDA backend goes through check(), so a failure always says which cohort call
// failed, what the runtime said, and (for the faults a kernel leaves behind)
// what usually causes it.
#pragma once

#include <cuda_runtime.h>

#include <string>

#include "cohort/errors.hpp"

namespace cohort::detail::gpu {

inline errc kind_of(cudaError_t e) {
  switch (e) {
    case cudaErrorMemoryAllocation:
      return errc::out_of_memory;
    case cudaErrorInvalidDevice:
    case cudaErrorInvalidDevicePointer:
    case cudaErrorInvalidValue:
      return errc::invalid_argument;
    case cudaErrorInvalidConfiguration:
    case cudaErrorLaunchOutOfResources:
      return errc::invalid_configuration;
    case cudaErrorCooperativeLaunchTooLarge:
      return errc::cooperative_too_large;
    case cudaErrorAssert:
      return errc::assertion_failed;
    default:
      return errc::runtime;
  }
}

// Faults that surface at the next synchronizing call, long after the kernel
// that caused them; the hint points at the usual culprits.
inline const char* hint_for(cudaError_t e) {
  switch (e) {
    case cudaErrorLaunchFailure:
    case cudaErrorIllegalInstruction:
      return " (a kernel trapped: cohort's grid.sync() traps in a launch that is not cooperative, where it could "
             "only hang: launch such a kernel with cohort::launch_cooperative; multi_grid.sync() and the multi-grid "
             "collectives trap in a launch that is not a multi-device one: launch it with "
             "cohort::launch_cooperative_multi_device; a grid collective (reduce, scans, invoke_one on the grid, the "
             "grid algorithms) traps where every grid barrier slot is taken by other streams' running cooperative "
             "launches or its values outgrow its exchange space (131072 bytes a phase), as grid_reduce into an "
             "address does on more than 8192 blocks; cohort's other device-side "
             "checks print what went wrong before trapping; see docs/cuda-backend.md; the CUDA context is unusable "
             "from here on)";
    case cudaErrorIllegalAddress:
    case cudaErrorMisalignedAddress:
      return " (a kernel accessed memory it does not own; run it under compute-sanitizer to find the access; "
             "the CUDA context is unusable from here on)";
    case cudaErrorAssert:
      return " (an assert() in kernel code failed: the device printed the assertion, block and thread on stdout; "
             "the CUDA context is unusable from here on)";
    case cudaErrorLaunchTimeout:
      return " (a kernel ran into the watchdog: a barrier some thread never reached?)";
    default:
      return "";
  }
}

inline error to_error(cudaError_t e, const std::string& what) {
  return error(kind_of(e), what + ": " + cudaGetErrorName(e) + ": " + cudaGetErrorString(e) + hint_for(e));
}

inline void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    // Clear the non-sticky error so that it does not resurface at an unrelated call.
    cudaGetLastError();
    throw to_error(e, what);
  }
}

}  // namespace cohort::detail::gpu
