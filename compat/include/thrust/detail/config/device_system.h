// Thrust's device system on the host backend: the C++ system, unless the
// program chose one (-DTHRUST_DEVICE_SYSTEM=THRUST_DEVICE_SYSTEM_OMP, say).
// Thrust's CUDA system launches CUB's kernels, written in PTX for a GPU.
// Thrust's own header follows (docs/cuda-compat.md, "Thrust").
#ifndef THRUST_DEVICE_SYSTEM
#define THRUST_DEVICE_SYSTEM THRUST_DEVICE_SYSTEM_CPP
#endif
#include_next <thrust/detail/config/device_system.h>
// clang-format off
// (indented: not one of the placeholder headers, whose #error is unconditional)
#if THRUST_DEVICE_SYSTEM == THRUST_DEVICE_SYSTEM_CUDA
#  error "cohort: Thrust's CUDA device system needs a GPU (its algorithms are CUB's PTX kernels): leave THRUST_DEVICE_SYSTEM unset for the C++ system, whose device memory is cohort's device memory"
#endif
// clang-format on
