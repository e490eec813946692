// <surface_types.h>: surface objects' handle and modes, with CUDA's names and
// enumerator values. cudaCreateSurfaceObject is in the runtime API; the reads
// and writes are in <surface_functions.h>.
#pragma once

enum cudaSurfaceBoundaryMode {
  cudaBoundaryModeZero = 0,   // reads outside the array give zero, writes there are dropped
  cudaBoundaryModeClamp = 1,  // coordinates outside the array are clamped into it
  cudaBoundaryModeTrap = 2,   // an access outside the array fails the kernel
};
enum cudaSurfaceFormatMode {
  cudaFormatModeForced = 0,
  cudaFormatModeAuto = 1,
};

typedef unsigned long long cudaSurfaceObject_t;
