// The surface reads and writes of surface objects on the host backend:
// surf1Dread/surf1Dwrite, surf2Dread/surf2Dwrite, surf3Dread/surf3Dwrite, as
// templates over the value's type, with the read also in the out-parameter
// form. As on a GPU, x is in bytes and y, z in rows and slices; an access
// touches sizeof(T) bytes at x. Outside the array, the boundary mode decides:
// cudaBoundaryModeTrap (the default) fails the launch with
// cudaErrorIllegalAddress, naming the call and the coordinates;
// cudaBoundaryModeZero reads zero and drops the write; cudaBoundaryModeClamp
// moves each coordinate to the nearest one inside. Layered and cubemap
// surfaces are not supported (nor are their arrays).
#pragma once

#include <algorithm>
#include <cstring>
#include <source_location>

#include "cohort_compat/surface_object.hpp"

namespace cohort::compat::surfacing {

// The address of the sizeof(T) bytes an access at (x, y, z) touches, or
// nullptr where the access is outside the array and the mode is zero.
inline unsigned char* locate(const char* call, cudaSurfaceObject_t handle, long long x, long long y, long long z,
                             std::size_t bytes, cudaSurfaceBoundaryMode mode, std::source_location where) {
  const surface_object& s = surface_of(handle);
  const long long last_x = static_cast<long long>(s.row_bytes) - static_cast<long long>(bytes);
  const bool inside = x >= 0 && x <= last_x && y >= 0 && y < s.rows && z >= 0 && z < s.slices;
  if (!inside) {
    if (mode == cudaBoundaryModeZero) return nullptr;
    if (mode != cudaBoundaryModeClamp || last_x < 0)
      cohort::detail::host::fail_surface_access(call, handle, x, y, z, bytes, where);
    x = std::clamp(x, 0LL, last_x);
    y = std::clamp(y, 0LL, static_cast<long long>(s.rows - 1));
    z = std::clamp(z, 0LL, static_cast<long long>(s.slices - 1));
  }
  return s.base + static_cast<std::size_t>(z) * s.slice_bytes + static_cast<std::size_t>(y) * s.row_bytes +
         static_cast<std::size_t>(x);
}

template <class T>
T read(const char* call, cudaSurfaceObject_t handle, long long x, long long y, long long z,
       cudaSurfaceBoundaryMode mode, std::source_location where) {
  T value;
  if (const unsigned char* p = locate(call, handle, x, y, z, sizeof(T), mode, where))
    std::memcpy(&value, p, sizeof(T));
  else
    std::memset(&value, 0, sizeof(T));
  return value;
}

template <class T>
void write(const char* call, const T& value, cudaSurfaceObject_t handle, long long x, long long y, long long z,
           cudaSurfaceBoundaryMode mode, std::source_location where) {
  if (unsigned char* p = locate(call, handle, x, y, z, sizeof(T), mode, where)) std::memcpy(p, &value, sizeof(T));
}

}  // namespace cohort::compat::surfacing

template <class T>
T surf1Dread(cudaSurfaceObject_t surface, int x, cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap,
             std::source_location where = std::source_location::current()) {
  return cohort::compat::surfacing::read<T>("surf1Dread", surface, x, 0, 0, mode, where);
}
template <class T>
void surf1Dread(T* value, cudaSurfaceObject_t surface, int x, cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap,
                std::source_location where = std::source_location::current()) {
  *value = cohort::compat::surfacing::read<T>("surf1Dread", surface, x, 0, 0, mode, where);
}
template <class T>
T surf2Dread(cudaSurfaceObject_t surface, int x, int y, cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap,
             std::source_location where = std::source_location::current()) {
  return cohort::compat::surfacing::read<T>("surf2Dread", surface, x, y, 0, mode, where);
}
template <class T>
void surf2Dread(T* value, cudaSurfaceObject_t surface, int x, int y,
                cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap,
                std::source_location where = std::source_location::current()) {
  *value = cohort::compat::surfacing::read<T>("surf2Dread", surface, x, y, 0, mode, where);
}
template <class T>
T surf3Dread(cudaSurfaceObject_t surface, int x, int y, int z, cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap,
             std::source_location where = std::source_location::current()) {
  return cohort::compat::surfacing::read<T>("surf3Dread", surface, x, y, z, mode, where);
}
template <class T>
void surf3Dread(T* value, cudaSurfaceObject_t surface, int x, int y, int z,
                cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap,
                std::source_location where = std::source_location::current()) {
  *value = cohort::compat::surfacing::read<T>("surf3Dread", surface, x, y, z, mode, where);
}

template <class T>
void surf1Dwrite(T value, cudaSurfaceObject_t surface, int x, cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap,
                 std::source_location where = std::source_location::current()) {
  cohort::compat::surfacing::write("surf1Dwrite", value, surface, x, 0, 0, mode, where);
}
template <class T>
void surf2Dwrite(T value, cudaSurfaceObject_t surface, int x, int y,
                 cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap,
                 std::source_location where = std::source_location::current()) {
  cohort::compat::surfacing::write("surf2Dwrite", value, surface, x, y, 0, mode, where);
}
template <class T>
void surf3Dwrite(T value, cudaSurfaceObject_t surface, int x, int y, int z,
                 cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap,
                 std::source_location where = std::source_location::current()) {
  cohort::compat::surfacing::write("surf3Dwrite", value, surface, x, y, z, mode, where);
}
