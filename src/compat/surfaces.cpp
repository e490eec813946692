// Surface objects on the host backend: cudaCreateSurfaceObject records where
// the array's elements are (cohort::compat::surface_object); the handle is that
// record's address, which the surface functions read and write through.
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "array_storage.hpp"
#include "cohort_compat/array_texture_api.hpp"
#include "cohort_compat/surface_object.hpp"
#include "runtime_state.hpp"

namespace cohort::compat::detail {

namespace {

struct surface_record {
  surface_object object;
  cudaResourceDesc resource;
};

std::mutex surfaces_mutex;
std::map<cudaSurfaceObject_t, std::unique_ptr<surface_record>>& surfaces() {
  static std::map<cudaSurfaceObject_t, std::unique_ptr<surface_record>> live;
  return live;
}

cudaError_t refuse(const std::string& why) { return fail(cudaErrorInvalidValue, "cudaCreateSurfaceObject: " + why); }

}  // namespace

}  // namespace cohort::compat::detail

using namespace cohort::compat::detail;

cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t* pSurfObject, const cudaResourceDesc* pResDesc) {
  if (const cudaError_t e = sticky()) return e;
  if (pSurfObject == nullptr || pResDesc == nullptr) return refuse("a null surface object or resource descriptor");
  if (pResDesc->resType != cudaResourceTypeArray)
    return refuse("a surface reads and writes a CUDA array: the resource's resType must be cudaResourceTypeArray");
  void* data = nullptr;
  cudaChannelFormatDesc format{};
  cudaExtent extent{};
  // Any live array, also one allocated without cudaArraySurfaceLoadStore: CUDA's documentation asks
  // for the flag, but an H200's driver (CUDA 13) makes the surface and its kernels read and write
  // through it, and NVIDIA's behaviour is the one to match.
  if (!array_storage(pResDesc->res.array.array, &data, &format, &extent))
    return fail(cudaErrorInvalidResourceHandle, "cudaCreateSurfaceObject: the array " +
                                                    address(pResDesc->res.array.array) + " is not a live cudaArray");
  auto record = std::make_unique<surface_record>();
  record->resource = *pResDesc;
  cohort::compat::surface_object& s = record->object;
  s.base = static_cast<unsigned char*>(data);
  s.element_bytes = (format.x + format.y + format.z + format.w) / 8;
  s.row_bytes = extent.width * static_cast<std::size_t>(s.element_bytes);
  s.rows = static_cast<int>(extent.height ? extent.height : 1);
  s.slices = static_cast<int>(extent.depth ? extent.depth : 1);
  s.slice_bytes = s.row_bytes * static_cast<std::size_t>(s.rows);
  const auto handle = static_cast<cudaSurfaceObject_t>(reinterpret_cast<std::uintptr_t>(&record->object));
  std::lock_guard lock(surfaces_mutex);
  surfaces()[handle] = std::move(record);
  *pSurfObject = handle;
  return cudaSuccess;
}

cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t surfObject) {
  if (const cudaError_t e = sticky()) return e;
  if (surfObject == 0) return cudaSuccess;
  std::lock_guard lock(surfaces_mutex);
  if (surfaces().erase(surfObject) == 0)
    return fail(cudaErrorInvalidValue,
                "cudaDestroySurfaceObject: " + std::to_string(surfObject) +
                    " is not a surface object made by cudaCreateSurfaceObject, or was destroyed");
  return cudaSuccess;
}

cudaError_t cudaGetSurfaceObjectResourceDesc(cudaResourceDesc* pResDesc, cudaSurfaceObject_t surfObject) {
  std::lock_guard lock(surfaces_mutex);
  const auto it = surfaces().find(surfObject);
  if (it == surfaces().end() || pResDesc == nullptr)
    return fail(cudaErrorInvalidValue, "cudaGetSurfaceObjectResourceDesc: not a live surface object");
  *pResDesc = it->second->resource;
  return cudaSuccess;
}

namespace cohort::detail::host {

void fail_surface_access(const char* call, cudaSurfaceObject_t surface, long long x, long long y, long long z,
                         std::size_t bytes, std::source_location where) {
  const compat::surface_object& s = compat::surface_of(surface);
  std::string extent = std::to_string(s.row_bytes) + " bytes";
  if (s.rows > 1 || s.slices > 1) extent += " x " + std::to_string(s.rows) + " rows";
  if (s.slices > 1) extent += " x " + std::to_string(s.slices) + " slices";
  std::string at = "x = " + std::to_string(x);
  if (y != 0 || s.rows > 1) at += ", y = " + std::to_string(y);
  if (z != 0 || s.slices > 1) at += ", z = " + std::to_string(z);
  usage_error(errc::memory_fault,
              std::string(call) + ": " + std::to_string(bytes) + " bytes at " + at +
                  " lie outside the surface's array of " + extent +
                  " in cudaBoundaryModeTrap, the default (x counts bytes, not elements: an element's index "
                  "times its size; cudaBoundaryModeZero or cudaBoundaryModeClamp read zero or the nearest "
                  "element instead)",
              where);
}

}  // namespace cohort::detail::host
