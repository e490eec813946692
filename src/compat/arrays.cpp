// CUDA arrays and the copies into and out of them, and cudaMemcpy3D, on the
// host backend. An array's texels lie in rows of its width in memory from
// cudaMalloc, so that every copy is a 2-D copy with cudaMemcpy2D's checks.
#include <algorithm>
#include <mutex>
#include <set>
#include <string>

#include "array_storage.hpp"
#include "cohort_compat/array_texture_api.hpp"
#include "runtime_state.hpp"

struct cudaArray {
  cudaChannelFormatDesc desc{};
  cudaExtent extent{};  // as allocated: height and depth 0 for fewer dimensions
  unsigned flags = 0;
  std::size_t texel_bytes = 0;
  void* data = nullptr;
  std::size_t row_bytes() const { return extent.width * texel_bytes; }
  std::size_t rows() const { return std::max<std::size_t>(extent.height, 1); }
  std::size_t slices() const { return std::max<std::size_t>(extent.depth, 1); }
};

namespace cohort::compat::detail {

namespace {

std::mutex arrays_mutex;
std::set<const cudaArray*>& arrays() {
  static std::set<const cudaArray*> live;
  return live;
}

bool live_array(const cudaArray* a) {
  std::lock_guard lock(arrays_mutex);
  return arrays().count(a) != 0;
}

cudaError_t bad_array(const char* call, const void* a) {
  return fail(cudaErrorInvalidResourceHandle,
              std::string(call) + ": the array " + address(a) +
                  " was not made by cudaMallocArray or cudaMalloc3DArray, or was freed");
}

cudaError_t allocate_array(const char* call, cudaArray_t* out, const cudaChannelFormatDesc* desc, cudaExtent extent,
                           unsigned flags) {
  if (const cudaError_t e = sticky()) return e;
  if (out == nullptr || desc == nullptr) return fail(cudaErrorInvalidValue, std::string(call) + ": a null argument");
  const int bits[4] = {desc->x, desc->y, desc->z, desc->w};
  int total = 0;
  for (int b : bits) {
    if (b != 0 && b != 8 && b != 16 && b != 32)
      return fail(cudaErrorInvalidChannelDescriptor,
                  std::string(call) + ": a channel of " + std::to_string(b) + " bits (8, 16 or 32 are supported)");
    total += b;
  }
  if (total == 0 || desc->f == cudaChannelFormatKindNone)
    return fail(cudaErrorInvalidChannelDescriptor, std::string(call) + ": the channel descriptor has no channel");
  if (extent.width == 0) return fail(cudaErrorInvalidValue, std::string(call) + ": a width of 0");
  auto* a = new cudaArray{*desc, extent, flags, static_cast<std::size_t>(total / 8), nullptr};
  if (const cudaError_t e = cudaMalloc(&a->data, a->row_bytes() * a->rows() * a->slices()); e != cudaSuccess) {
    delete a;
    return e;
  }
  {
    std::lock_guard lock(arrays_mutex);
    arrays().insert(a);
  }
  *out = a;
  return cudaSuccess;
}

// One side of a 3-D copy: where its first byte is and how its rows and slices lie.
struct copy_side {
  char* base = nullptr;
  std::size_t pitch = 0;
  std::size_t slice = 0;
};

}  // namespace

void release_device_arrays() {
  const int device = cohort::get_device();
  std::lock_guard lock(arrays_mutex);
  for (auto it = arrays().begin(); it != arrays().end();) {
    if (cohort::device_of((*it)->data) == device) {
      delete *it;
      it = arrays().erase(it);
    } else {
      ++it;
    }
  }
}

bool array_storage(cudaArray_const_t a, void** data, cudaChannelFormatDesc* desc, cudaExtent* extent, unsigned* flags) {
  if (!live_array(a)) return false;
  *data = a->data;
  *desc = a->desc;
  *extent = a->extent;
  if (flags) *flags = a->flags;
  return true;
}

}  // namespace cohort::compat::detail

using namespace cohort::compat::detail;

cudaError_t cudaMallocArray(cudaArray_t* array, const cudaChannelFormatDesc* desc, size_t width, size_t height,
                            unsigned int flags) {
  return allocate_array("cudaMallocArray", array, desc, {width, height, 0}, flags);
}

cudaError_t cudaMalloc3DArray(cudaArray_t* array, const cudaChannelFormatDesc* desc, cudaExtent extent,
                              unsigned int flags) {
  return allocate_array("cudaMalloc3DArray", array, desc, extent, flags);
}

cudaError_t cudaFreeArray(cudaArray_t array) {
  if (const cudaError_t e = sticky()) return e;
  if (array == nullptr) return cudaSuccess;
  {
    std::lock_guard lock(arrays_mutex);
    if (arrays().erase(array) == 0) return bad_array("cudaFreeArray", array);
  }
  const cudaError_t e = cudaFree(array->data);
  delete array;
  return e;
}

cudaError_t cudaArrayGetInfo(cudaChannelFormatDesc* desc, cudaExtent* extent, unsigned int* flags, cudaArray_t array) {
  if (!live_array(array)) return bad_array("cudaArrayGetInfo", array);
  if (desc) *desc = array->desc;
  if (extent) *extent = array->extent;
  if (flags) *flags = array->flags;
  return cudaSuccess;
}

cudaError_t cudaGetChannelDesc(cudaChannelFormatDesc* desc, cudaArray_const_t array) {
  if (!live_array(array)) return bad_array("cudaGetChannelDesc", array);
  if (desc == nullptr) return fail(cudaErrorInvalidValue, "cudaGetChannelDesc: a null descriptor");
  *desc = array->desc;
  return cudaSuccess;
}

cudaError_t cudaMalloc3D(cudaPitchedPtr* pitchedDevPtr, cudaExtent extent) {
  if (pitchedDevPtr == nullptr) return fail(cudaErrorInvalidValue, "cudaMalloc3D: a null pointer");
  void* p = nullptr;
  size_t pitch = 0;
  if (const cudaError_t e = cudaMallocPitch(
          &p, &pitch, extent.width, std::max<std::size_t>(extent.height, 1) * std::max<std::size_t>(extent.depth, 1)))
    return e;
  *pitchedDevPtr = make_cudaPitchedPtr(p, pitch, extent.width, extent.height);
  return cudaSuccess;
}

cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void* src, size_t spitch,
                                size_t width, size_t height, cudaMemcpyKind kind) {
  if (const cudaError_t e = sticky()) return e;
  if (!live_array(dst)) return bad_array("cudaMemcpy2DToArray", dst);
  if (wOffset + width > dst->row_bytes() || hOffset + height > dst->rows() * dst->slices())
    return fail(cudaErrorInvalidValue, "cudaMemcpy2DToArray: " + std::to_string(width) + " bytes x " +
                                           std::to_string(height) + " rows at (" + std::to_string(wOffset) + ", " +
                                           std::to_string(hOffset) + ") run past the array's " +
                                           std::to_string(dst->row_bytes()) + "-byte rows");
  return cudaMemcpy2D(static_cast<char*>(dst->data) + hOffset * dst->row_bytes() + wOffset, dst->row_bytes(), src,
                      spitch, width, height, kind);
}

cudaError_t cudaMemcpy2DToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset, const void* src, size_t spitch,
                                     size_t width, size_t height, cudaMemcpyKind kind, cudaStream_t stream) {
  if (!valid_stream(stream)) return bad_stream("cudaMemcpy2DToArrayAsync", stream);
  if (cohort::compat::capturing(stream))
    return cohort::compat::capture_operation(stream, cudaGraphNodeTypeMemcpy, [=] {
      return cudaMemcpy2DToArray(dst, wOffset, hOffset, src, spitch, width, height, kind);
    });
  return cudaMemcpy2DToArray(dst, wOffset, hOffset, src, spitch, width, height, kind);
}

cudaError_t cudaMemcpy2DFromArray(void* dst, size_t dpitch, cudaArray_const_t src, size_t wOffset, size_t hOffset,
                                  size_t width, size_t height, cudaMemcpyKind kind) {
  if (const cudaError_t e = sticky()) return e;
  if (!live_array(src)) return bad_array("cudaMemcpy2DFromArray", src);
  if (wOffset + width > src->row_bytes() || hOffset + height > src->rows() * src->slices())
    return fail(cudaErrorInvalidValue, "cudaMemcpy2DFromArray: the rectangle runs past the array");
  return cudaMemcpy2D(dst, dpitch, static_cast<const char*>(src->data) + hOffset * src->row_bytes() + wOffset,
                      src->row_bytes(), width, height, kind);
}

cudaError_t cudaMemcpy2DFromArrayAsync(void* dst, size_t dpitch, cudaArray_const_t src, size_t wOffset, size_t hOffset,
                                       size_t width, size_t height, cudaMemcpyKind kind, cudaStream_t stream) {
  if (!valid_stream(stream)) return bad_stream("cudaMemcpy2DFromArrayAsync", stream);
  if (cohort::compat::capturing(stream))
    return cohort::compat::capture_operation(stream, cudaGraphNodeTypeMemcpy, [=] {
      return cudaMemcpy2DFromArray(dst, dpitch, src, wOffset, hOffset, width, height, kind);
    });
  return cudaMemcpy2DFromArray(dst, dpitch, src, wOffset, hOffset, width, height, kind);
}

// A count of bytes from (wOffset, hOffset) on, row after row, as CUDA's 1-D form copies.
cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void* src, size_t count,
                              cudaMemcpyKind kind) {
  if (const cudaError_t e = sticky()) return e;
  if (!live_array(dst)) return bad_array("cudaMemcpyToArray", dst);
  const std::size_t start = hOffset * dst->row_bytes() + wOffset;
  if (start + count > dst->row_bytes() * dst->rows() * dst->slices())
    return fail(cudaErrorInvalidValue, "cudaMemcpyToArray: " + std::to_string(count) + " bytes run past the array");
  return cudaMemcpy(static_cast<char*>(dst->data) + start, src, count, kind);
}

cudaError_t cudaMemcpyFromArray(void* dst, cudaArray_const_t src, size_t wOffset, size_t hOffset, size_t count,
                                cudaMemcpyKind kind) {
  if (const cudaError_t e = sticky()) return e;
  if (!live_array(src)) return bad_array("cudaMemcpyFromArray", src);
  const std::size_t start = hOffset * src->row_bytes() + wOffset;
  if (start + count > src->row_bytes() * src->rows() * src->slices())
    return fail(cudaErrorInvalidValue, "cudaMemcpyFromArray: " + std::to_string(count) + " bytes run past the array");
  return cudaMemcpy(dst, static_cast<const char*>(src->data) + start, count, kind);
}

cudaError_t cudaMemcpy3D(const cudaMemcpy3DParms* p) {
  if (const cudaError_t e = sticky()) return e;
  if (p == nullptr) return fail(cudaErrorInvalidValue, "cudaMemcpy3D: null parameters");
  if ((p->srcArray != nullptr) == (p->srcPtr.ptr != nullptr) || (p->dstArray != nullptr) == (p->dstPtr.ptr != nullptr))
    return fail(cudaErrorInvalidValue, "cudaMemcpy3D: each side needs exactly one of an array and a pitched pointer");
  if (p->srcArray && !live_array(p->srcArray)) return bad_array("cudaMemcpy3D", p->srcArray);
  if (p->dstArray && !live_array(p->dstArray)) return bad_array("cudaMemcpy3D", p->dstArray);
  // The extent and an array's x position count elements when an array is involved, bytes otherwise.
  const cudaArray* an_array = p->srcArray ? p->srcArray : p->dstArray;
  const std::size_t element = an_array ? an_array->texel_bytes : 1;
  const auto side = [](cudaArray_t array, const cudaPitchedPtr& ptr, const cudaPos& pos) {
    copy_side s;
    if (array) {
      s.pitch = array->row_bytes();
      s.slice = s.pitch * array->rows();
      s.base = static_cast<char*>(array->data) + pos.z * s.slice + pos.y * s.pitch + pos.x * array->texel_bytes;
    } else {
      s.pitch = ptr.pitch;
      s.slice = ptr.pitch * ptr.ysize;
      s.base = static_cast<char*>(ptr.ptr) + pos.z * s.slice + pos.y * s.pitch + pos.x;
    }
    return s;
  };
  const copy_side from = side(p->srcArray, p->srcPtr, p->srcPos), to = side(p->dstArray, p->dstPtr, p->dstPos);
  const std::size_t width = p->extent.width * element;
  for (std::size_t z = 0; z < p->extent.depth; ++z)
    if (const cudaError_t e = cudaMemcpy2D(to.base + z * to.slice, to.pitch, from.base + z * from.slice, from.pitch,
                                           width, p->extent.height, p->kind))
      return e;
  return cudaSuccess;
}

cudaError_t cudaMemcpy3DAsync(const cudaMemcpy3DParms* p, cudaStream_t stream) {
  if (!valid_stream(stream)) return bad_stream("cudaMemcpy3DAsync", stream);
  if (cohort::compat::capturing(stream) && p != nullptr)
    return cohort::compat::capture_operation(stream, cudaGraphNodeTypeMemcpy,
                                             [copy = *p] { return cudaMemcpy3D(&copy); });
  return cudaMemcpy3D(p);
}
