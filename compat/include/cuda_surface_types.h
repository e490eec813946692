// <cuda_surface_types.h> on the host backend: surface objects (the types of
// <surface_types.h> and the accesses of <surface_functions.h>). Surface
// references, the surface<void, dim> template that CUDA 12 removed, are a
// compile error that says what to use instead.
#pragma once

#include "surface_functions.h"
#include "surface_types.h"

template <class T, int Dims = 1>
struct surface {
  static_assert(
      sizeof(T*) == 0,  // T is void in every surface reference
      "cohort: surface<void, dim> (surface references) was removed in CUDA 12 and is not supported: "
      "create a cudaSurfaceObject_t with cudaCreateSurfaceObject over a cudaArray allocated with "
      "cudaArraySurfaceLoadStore, and access it with surf1Dread<T>(obj, x), surf2Dwrite(value, obj, x, y), ...");
};
