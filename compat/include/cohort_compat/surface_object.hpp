// What a cudaSurfaceObject_t names on the host backend: the bytes of the CUDA
// array it was made from and their layout, recorded by cudaCreateSurfaceObject
// (src/compat/surfaces.cpp) and read and written by <surface_functions.h>.
#pragma once

#include <cstddef>
#include <source_location>

#include "../surface_types.h"

namespace cohort::compat {

struct surface_object {
  unsigned char* base = nullptr;
  std::size_t row_bytes = 0;    // the array's width in bytes: the x coordinate's range
  std::size_t slice_bytes = 0;  // bytes from one 2-D slice to the next
  int rows = 1;                 // along y (1 for a 1-D array)
  int slices = 1;               // along z (1 for a 1-D or 2-D array)
  int element_bytes = 0;        // one element of the array's channel format
};

inline const surface_object& surface_of(cudaSurfaceObject_t handle) {
  return *reinterpret_cast<const surface_object*>(static_cast<std::size_t>(handle));
}

}  // namespace cohort::compat

namespace cohort::detail::host {
// A surface access outside the array in cudaBoundaryModeTrap fails the
// launch, as it fails the kernel on a GPU, naming the call site and the
// thread (src/compat/surfaces.cpp).
[[noreturn]] void fail_surface_access(const char* call, cudaSurfaceObject_t surface, long long x, long long y,
                                      long long z, std::size_t bytes, std::source_location where);
}  // namespace cohort::detail::host
