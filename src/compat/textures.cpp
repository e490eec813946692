// Texture objects on the host backend: cudaCreateTextureObject records where
// the texels are and how they are sampled (cohort::compat::texture_object);
// the handle is that record's address, which the fetch functions read.
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "array_storage.hpp"
#include "cohort_compat/array_texture_api.hpp"
#include "cohort_compat/texture_object.hpp"
#include "runtime_state.hpp"

namespace cohort::compat::detail {

namespace {

struct texture_record {
  texture_object object;
  cudaResourceDesc resource;
  cudaTextureDesc sampling;
};

std::mutex textures_mutex;
std::map<cudaTextureObject_t, std::unique_ptr<texture_record>>& textures() {
  static std::map<cudaTextureObject_t, std::unique_ptr<texture_record>> live;
  return live;
}

int texel_bytes_of(const cudaChannelFormatDesc& d) {
  for (int bits : {d.x, d.y, d.z, d.w})
    if (bits != 0 && bits != 8 && bits != 16 && bits != 32) return 0;
  return (d.x + d.y + d.z + d.w) / 8;
}

cudaError_t refuse(const std::string& why) { return fail(cudaErrorInvalidValue, "cudaCreateTextureObject: " + why); }

// Where the resource's texels are, into `t`.
cudaError_t describe_resource(const cudaResourceDesc& r, texture_object& t) {
  switch (r.resType) {
    case cudaResourceTypeArray: {
      void* data = nullptr;
      cudaExtent extent{};
      if (!array_storage(r.res.array.array, &data, &t.format, &extent))
        return fail(cudaErrorInvalidResourceHandle,
                    "cudaCreateTextureObject: the array " + address(r.res.array.array) + " is not a live cudaArray");
      t.texel_bytes = texel_bytes_of(t.format);
      t.base = static_cast<const unsigned char*>(data);
      t.extent[0] = static_cast<int>(extent.width);
      t.extent[1] = static_cast<int>(extent.height ? extent.height : 1);
      t.extent[2] = static_cast<int>(extent.depth ? extent.depth : 1);
      t.row_pitch = extent.width * static_cast<std::size_t>(t.texel_bytes);
      t.slice_pitch = t.row_pitch * static_cast<std::size_t>(t.extent[1]);
      t.one_row_array = extent.height == 0;
      return cudaSuccess;
    }
    case cudaResourceTypeLinear:
      if (r.res.linear.devPtr == nullptr) return refuse("a linear resource with a null devPtr");
      t.format = r.res.linear.desc;
      t.texel_bytes = texel_bytes_of(t.format);
      if (t.texel_bytes == 0) return refuse("the channel descriptor has no valid channel (8, 16 or 32 bits)");
      t.base = static_cast<const unsigned char*>(r.res.linear.devPtr);
      t.extent[0] = static_cast<int>(r.res.linear.sizeInBytes / static_cast<std::size_t>(t.texel_bytes));
      t.row_pitch = r.res.linear.sizeInBytes;
      t.slice_pitch = t.row_pitch;
      return cudaSuccess;
    case cudaResourceTypePitch2D:
      if (r.res.pitch2D.devPtr == nullptr) return refuse("a pitch2D resource with a null devPtr");
      t.format = r.res.pitch2D.desc;
      t.texel_bytes = texel_bytes_of(t.format);
      if (t.texel_bytes == 0) return refuse("the channel descriptor has no valid channel (8, 16 or 32 bits)");
      if (r.res.pitch2D.width * static_cast<std::size_t>(t.texel_bytes) > r.res.pitch2D.pitchInBytes)
        return refuse("a pitch2D row of " + std::to_string(r.res.pitch2D.width) +
                      " texels is wider than its pitch of " + std::to_string(r.res.pitch2D.pitchInBytes) + " bytes");
      t.base = static_cast<const unsigned char*>(r.res.pitch2D.devPtr);
      t.extent[0] = static_cast<int>(r.res.pitch2D.width);
      t.extent[1] = static_cast<int>(r.res.pitch2D.height);
      t.row_pitch = r.res.pitch2D.pitchInBytes;
      t.slice_pitch = t.row_pitch * r.res.pitch2D.height;
      return cudaSuccess;
    default:
      return fail(cudaErrorNotSupported,
                  "cudaCreateTextureObject: mipmapped arrays are not supported on the host backend: use a cudaArray");
  }
}

}  // namespace

}  // namespace cohort::compat::detail

using namespace cohort::compat::detail;

cudaError_t cudaCreateTextureObject(cudaTextureObject_t* pTexObject, const cudaResourceDesc* pResDesc,
                                    const cudaTextureDesc* pTexDesc, const cudaResourceViewDesc* pResViewDesc) {
  if (const cudaError_t e = sticky()) return e;
  if (pTexObject == nullptr || pResDesc == nullptr || pTexDesc == nullptr)
    return refuse("a null texture object, resource or texture descriptor");
  if (pResViewDesc != nullptr)
    return fail(cudaErrorNotSupported,
                "cudaCreateTextureObject: resource views are not supported on the host backend: pass nullptr");
  auto record = std::make_unique<texture_record>();
  record->resource = *pResDesc;
  record->sampling = *pTexDesc;
  cohort::compat::texture_object& t = record->object;
  if (const cudaError_t e = describe_resource(*pResDesc, t)) return e;
  for (int d = 0; d < 3; ++d) t.address[d] = pTexDesc->addressMode[d];
  t.filter = pTexDesc->filterMode;
  t.read = pTexDesc->readMode;
  t.normalized_coords = pTexDesc->normalizedCoords != 0;
  for (int c = 0; c < 4; ++c) t.border[c] = pTexDesc->borderColor[c];
  if (t.read == cudaReadModeNormalizedFloat && t.format.f == cudaChannelFormatKindFloat)
    t.read = cudaReadModeElementType;  // float texels are read as they are
  const auto handle = static_cast<cudaTextureObject_t>(reinterpret_cast<std::uintptr_t>(&record->object));
  std::lock_guard lock(textures_mutex);
  textures()[handle] = std::move(record);
  *pTexObject = handle;
  return cudaSuccess;
}

cudaError_t cudaDestroyTextureObject(cudaTextureObject_t texObject) {
  if (const cudaError_t e = sticky()) return e;
  if (texObject == 0) return cudaSuccess;
  std::lock_guard lock(textures_mutex);
  if (textures().erase(texObject) == 0)
    return fail(cudaErrorInvalidValue,
                "cudaDestroyTextureObject: " + std::to_string(texObject) +
                    " is not a texture object made by cudaCreateTextureObject, or was destroyed");
  return cudaSuccess;
}

cudaError_t cudaGetTextureObjectResourceDesc(cudaResourceDesc* pResDesc, cudaTextureObject_t texObject) {
  std::lock_guard lock(textures_mutex);
  const auto it = textures().find(texObject);
  if (it == textures().end() || pResDesc == nullptr)
    return fail(cudaErrorInvalidValue, "cudaGetTextureObjectResourceDesc: not a live texture object");
  *pResDesc = it->second->resource;
  return cudaSuccess;
}

cudaError_t cudaGetTextureObjectTextureDesc(cudaTextureDesc* pTexDesc, cudaTextureObject_t texObject) {
  std::lock_guard lock(textures_mutex);
  const auto it = textures().find(texObject);
  if (it == textures().end() || pTexDesc == nullptr)
    return fail(cudaErrorInvalidValue, "cudaGetTextureObjectTextureDesc: not a live texture object");
  *pTexDesc = it->second->sampling;
  return cudaSuccess;
}
