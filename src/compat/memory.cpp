// Memory as the CUDA runtime hands it out on the host backend: device and
// managed memory from cohort's tracked allocator (each allocation the current
// device's, in that device's own capacity), pinned host memory, and
// __device__/__constant__ variables, all recorded as regions so that copies,
// fills and frees are checked as CUDA checks them (a wrong pointer is
// cudaErrorInvalidValue with a message saying which and why).
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <map>
#include <mutex>
#include <sstream>
#include <vector>

#include "managed_advice.hpp"
#include "runtime_state.hpp"
#include "stream_order.hpp"

namespace cohort::compat::detail {

namespace {

std::mutex regions_mutex;

// By base address. Built on first use: a program may allocate from a static
// initializer. Never destroyed: memory the program did not free stays
// reachable (no leak at exit), and a static destructor may still free it.
std::map<const char*, region>& regions() {
  static auto* const by_base = new std::map<const char*, region>;
  return *by_base;
}

const char* bytes_of(const void* p) { return static_cast<const char*>(p); }

const char* kind_name(cudaMemcpyKind kind) {
  switch (kind) {
    case cudaMemcpyHostToHost:
      return "cudaMemcpyHostToHost";
    case cudaMemcpyHostToDevice:
      return "cudaMemcpyHostToDevice";
    case cudaMemcpyDeviceToHost:
      return "cudaMemcpyDeviceToHost";
    case cudaMemcpyDeviceToDevice:
      return "cudaMemcpyDeviceToDevice";
    case cudaMemcpyDefault:
      return "cudaMemcpyDefault";
  }
  return "an unknown cudaMemcpyKind";
}

// The device side of a copy or fill must lie inside memory the runtime handed out.
cudaError_t check_device_side(const char* call, const char* side, const void* p, std::size_t bytes) {
  region r;
  if (find_region(p, bytes, &r)) return cudaSuccess;
  if (find_region(p, 1, &r))
    return fail(cudaErrorInvalidValue, std::string(call) + ": the " + side + " " + address(p) + " + " +
                                           std::to_string(bytes) + " bytes runs past the end of its allocation of " +
                                           std::to_string(r.bytes) + " bytes at " + address(r.base));
  return fail(cudaErrorInvalidValue, std::string(call) + ": the " + side + " " + address(p) +
                                         " is not device memory: allocate it with cudaMalloc or cudaMallocManaged "
                                         "(or pass cudaMemcpyDefault for host memory)");
}

bool is_device_kind(memory_kind k) {
  return k == memory_kind::device || k == memory_kind::managed || k == memory_kind::symbol;
}

// What memory the runtime knows `p` to be, for messages: "device 1's allocation of 64 bytes at 0x...".
std::string described(const region& r) {
  switch (r.kind) {
    case memory_kind::device:
      return "device memory (device " + std::to_string(cohort::device_of(r.base)) + "'s allocation of " +
             std::to_string(r.bytes) + " bytes at " + address(r.base) + ")";
    case memory_kind::symbol:
      return "a __device__ variable";
    default:
      return "host memory";
  }
}

// cudaMemcpyDefault: the runtime tells each side from the pointers, as unified addressing does.
cudaMemcpyKind resolved(cudaMemcpyKind kind, const void* dst, const void* src) {
  if (kind != cudaMemcpyDefault) return kind;
  region r;
  const bool to_device = find_region(dst, 1, &r) && is_device_kind(r.kind);
  const bool from_device = find_region(src, 1, &r) && is_device_kind(r.kind);
  return to_device ? (from_device ? cudaMemcpyDeviceToDevice : cudaMemcpyHostToDevice)
                   : (from_device ? cudaMemcpyDeviceToHost : cudaMemcpyHostToHost);
}

// A host side that is device memory contradicts the kind (managed memory is both).
cudaError_t check_host_side(const std::string& what, const char* side, const void* p, cudaMemcpyKind kind) {
  region r;
  if (!find_region(p, 1, &r) || (r.kind != memory_kind::device && r.kind != memory_kind::symbol)) return cudaSuccess;
  return fail(cudaErrorInvalidMemcpyDirection,
              what + ": the " + side + " " + address(p) + " is " + described(r) + ", but " + kind_name(kind) +
                  " says host memory; pass the kind that matches the pointers, or cudaMemcpyDefault to have the "
                  "runtime tell");
}

// Host memory the runtime did not hand out or register.
bool pageable(const void* p) {
  region r;
  return !find_region(p, 1, &r);
}

// A copy in `stream`'s order, pageable host memory treated as CUDA's copies
// treat it: a source is read at the call (CUDA stages it, and the program may
// reuse it as soon as the call returns), a destination is written before the
// call returns (CUDA's copy into pageable memory ends with a copy by the host).
cudaError_t stream_copy(const char* call, cudaStream_t stream, void* dst, const void* src, std::size_t count,
                        bool host_dst, bool host_src) {
  if (runs_inline(stream)) {
    std::memmove(dst, src, count);
    return cudaSuccess;
  }
  cudaError_t e = cudaSuccess;
  if (host_src && pageable(src)) {
    const auto* from = static_cast<const unsigned char*>(src);
    e = enqueue(call, stream, task_kind::work,
                stream_task([dst, staged = std::vector<unsigned char>(from, from + count)](cudaError_t) {
                  std::memcpy(dst, staged.data(), staged.size());
                }));
  } else {
    e = enqueue(call, stream, task_kind::work,
                stream_task([dst, src, count](cudaError_t) { std::memmove(dst, src, count); }));
  }
  if (e != cudaSuccess || !host_dst || !pageable(dst)) return e;
  if (const cudaError_t waited = synchronize_stream(stream)) return waited;
  return sticky();
}

cudaError_t copy(const char* call, void* dst, const void* src, std::size_t count, cudaMemcpyKind kind,
                 cudaStream_t stream) {
  refuse_in_kernel(call);
  if (const cudaError_t e = sticky()) return e;
  if (!valid_stream(stream)) return bad_stream(call, stream);
  if (capturing(stream))  // a node of the graph being captured: the copy when the graph runs
    return capture_operation(stream, cudaGraphNodeTypeMemcpy,
                             [=] { return copy(call, dst, src, count, kind, nullptr); });
  if (kind < cudaMemcpyHostToHost || kind > cudaMemcpyDefault)
    return fail(cudaErrorInvalidMemcpyDirection,
                std::string(call) + ": kind " + std::to_string(static_cast<int>(kind)) + " is not a cudaMemcpyKind");
  if (count == 0) return cudaSuccess;
  if (dst == nullptr || src == nullptr)
    return fail(cudaErrorInvalidValue, std::string(call) + ": null " + (dst == nullptr ? "destination" : "source") +
                                           " for a copy of " + std::to_string(count) + " bytes");
  const std::string what = std::string(call) + "(" + kind_name(kind) + ")";
  kind = resolved(kind, dst, src);
  const bool device_dst = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
  const bool device_src = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
  if (device_dst) {
    if (const cudaError_t e = check_device_side(what.c_str(), "destination", dst, count)) return e;
  } else if (const cudaError_t e = check_host_side(what, "destination", dst, kind)) {
    return e;
  }
  if (device_src) {
    if (const cudaError_t e = check_device_side(what.c_str(), "source", src, count)) return e;
  } else if (const cudaError_t e = check_host_side(what, "source", src, kind)) {
    return e;
  }
  return stream_copy(call, stream, dst, src, count, !device_dst, !device_src);
}

// A copy between two devices' memory: each pointer must lie in device memory of the device named with it.
cudaError_t peer_copy(const char* call, void* dst, int dst_device, const void* src, int src_device, std::size_t count,
                      cudaStream_t stream) {
  refuse_in_kernel(call);
  if (const cudaError_t e = sticky()) return e;
  if (!valid_stream(stream)) return bad_stream(call, stream);
  if (capturing(stream))
    return capture_operation(stream, cudaGraphNodeTypeMemcpy,
                             [=] { return peer_copy(call, dst, dst_device, src, src_device, count, nullptr); });
  for (const int d : {dst_device, src_device})
    if (d < 0 || d >= cohort::device_count()) return fail(cudaErrorInvalidDevice, no_such_device(call, d));
  if (count == 0) return cudaSuccess;
  const auto check_side = [&](const char* side, const void* p, int device) -> cudaError_t {
    if (const cudaError_t e = check_device_side(call, side, p, count)) return e;
    region r;
    find_region(p, count, &r);
    if (r.kind != memory_kind::device && r.kind != memory_kind::managed)
      return fail(cudaErrorInvalidValue, std::string(call) + ": the " + side + " " + address(p) + " is " +
                                             described(r) + ", not memory from cudaMalloc or cudaMallocManaged");
    const int owner = cohort::device_of(p);
    if (owner != device)
      return fail(cudaErrorInvalidValue, std::string(call) + ": the " + side + " " + address(p) + " is device " +
                                             std::to_string(owner) + "'s memory, not device " + std::to_string(device) +
                                             "'s; pass the device it was allocated on (cudaPointerGetAttributes "
                                             "tells)");
    return cudaSuccess;
  };
  if (const cudaError_t e = check_side("destination", dst, dst_device)) return e;
  if (const cudaError_t e = check_side("source", src, src_device)) return e;
  return issue(call, stream, task_kind::work, [dst, src, count](cudaError_t) { std::memmove(dst, src, count); });
}

// A 2-D copy: `height` rows of `width` bytes, rows `dpitch` and `spitch` apart.
// The whole extent of each device side is checked first, so a bad copy changes nothing.
cudaError_t copy_2d(const char* call, void* dst, std::size_t dpitch, const void* src, std::size_t spitch,
                    std::size_t width, std::size_t height, cudaMemcpyKind kind, cudaStream_t stream) {
  refuse_in_kernel(call);
  if (capturing(stream))
    return capture_operation(stream, cudaGraphNodeTypeMemcpy,
                             [=] { return copy_2d(call, dst, dpitch, src, spitch, width, height, kind, nullptr); });
  if (const cudaError_t e = copy(call, dst, src, 0, kind, stream)) return e;  // sticky, stream and kind
  if (width > dpitch || width > spitch)
    return fail(cudaErrorInvalidPitchValue, std::string(call) + ": a row of " + std::to_string(width) +
                                                " bytes is wider than its pitch (" + std::to_string(dpitch) +
                                                " destination, " + std::to_string(spitch) + " source)");
  if (width == 0 || height == 0) return cudaSuccess;
  if (dst == nullptr || src == nullptr) return fail(cudaErrorInvalidValue, std::string(call) + ": a null pointer");
  const std::string what = std::string(call) + "(" + kind_name(kind) + ")";
  if (kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice)
    if (const cudaError_t e = check_device_side(what.c_str(), "destination", dst, dpitch * (height - 1) + width))
      return e;
  if (kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice)
    if (const cudaError_t e = check_device_side(what.c_str(), "source", src, spitch * (height - 1) + width)) return e;
  const cudaError_t e = issue(call, stream, task_kind::work, [=](cudaError_t) {
    for (std::size_t row = 0; row < height; ++row)
      std::memmove(static_cast<char*>(dst) + row * dpitch, static_cast<const char*>(src) + row * spitch, width);
  });
  // Pageable host memory on either side: done before the call returns (as stream_copy's staging would be).
  if (e != cudaSuccess || !(pageable(src) || pageable(dst)) || runs_inline(stream)) return e;
  if (const cudaError_t waited = synchronize_stream(stream)) return waited;
  return sticky();
}

// What a memset fills: `depth` slices `slice` bytes apart, each of `height` rows `pitch` bytes apart, each
// row `width` bytes (cudaMemset: one row, its pitch its width; cudaMemset2D: one slice).
struct fill_shape {
  std::size_t width, height = 1, depth = 1, pitch = 0, slice = 0;
};

cudaError_t fill(const char* call, void* p, int value, fill_shape shape, cudaStream_t stream) {
  refuse_in_kernel(call);
  if (const cudaError_t e = sticky()) return e;
  if (!valid_stream(stream)) return bad_stream(call, stream);
  if (capturing(stream))
    return capture_operation(stream, cudaGraphNodeTypeMemset, [=] { return fill(call, p, value, shape, nullptr); });
  if (shape.width > shape.pitch)
    return fail(cudaErrorInvalidPitchValue, std::string(call) + ": a row of " + std::to_string(shape.width) +
                                                " bytes is wider than the pitch " + std::to_string(shape.pitch));
  if (shape.depth > 1 && shape.pitch * shape.height > shape.slice)
    return fail(cudaErrorInvalidValue, std::string(call) + ": " + std::to_string(shape.height) + " rows of pitch " +
                                           std::to_string(shape.pitch) + " are more than a slice of " +
                                           std::to_string(shape.slice) + " bytes");
  if (shape.width == 0 || shape.height == 0 || shape.depth == 0) return cudaSuccess;
  const std::size_t extent = shape.slice * (shape.depth - 1) + shape.pitch * (shape.height - 1) + shape.width;
  if (const cudaError_t e = check_device_side(call, "destination", p, extent)) return e;
  return issue(call, stream, task_kind::work, [p, value, shape](cudaError_t) {
    for (std::size_t z = 0; z < shape.depth; ++z)
      for (std::size_t row = 0; row < shape.height; ++row)
        std::memset(static_cast<char*>(p) + z * shape.slice + row * shape.pitch, value, shape.width);
  });
}

cudaError_t allocate(const char* call, void** p, std::size_t bytes, memory_kind kind) {
  refuse_in_kernel(call);
  if (const cudaError_t e = sticky()) return e;
  if (p == nullptr) return fail(cudaErrorInvalidValue, std::string(call) + ": the pointer to store into is null");
  *p = nullptr;
  if (bytes == 0) return cudaSuccess;
  try {
    if (kind == memory_kind::pinned_host) {
      *p = std::aligned_alloc(256, (bytes + 255) / 256 * 256);
      if (*p == nullptr)
        throw cohort::error(cohort::errc::out_of_memory,
                            "the system cannot supply " + std::to_string(bytes) + " bytes of host memory");
    } else {
      *p = cohort::malloc_device<unsigned char>(bytes);
    }
  } catch (const cohort::error& e) {
    return fail(e, call);
  }
  add_region({*p, bytes, kind});
  return cudaSuccess;
}

}  // namespace

std::string address(const void* p) {
  std::ostringstream s;
  s << p;
  return s.str();
}

void add_region(const region& r) {
  std::lock_guard lock(regions_mutex);
  regions()[bytes_of(r.base)] = r;
}

bool find_region(const void* p, std::size_t bytes, region* found) {
  std::lock_guard lock(regions_mutex);
  auto it = regions().upper_bound(bytes_of(p));
  if (it == regions().begin()) return false;
  --it;
  const region& r = it->second;
  const std::size_t offset = static_cast<std::size_t>(bytes_of(p) - bytes_of(r.base));
  if (offset >= r.bytes || bytes > r.bytes - offset) return false;
  *found = r;
  return true;
}

bool remove_region(const void* p, memory_kind kind, region* removed) {
  std::lock_guard lock(regions_mutex);
  const auto it = regions().find(bytes_of(p));
  if (it == regions().end() || it->second.kind != kind) return false;
  *removed = it->second;
  regions().erase(it);
  return true;
}

void release_device_regions() {
  const int device = cohort::get_device();
  {
    std::lock_guard lock(regions_mutex);
    for (auto it = regions().begin(); it != regions().end();) {
      const memory_kind k = it->second.kind;
      if ((k == memory_kind::device || k == memory_kind::managed) && cohort::device_of(it->second.base) == device) {
        forget_advice(it->second.base, it->second.bytes);
        cohort::free_device(const_cast<void*>(it->second.base));
        it = regions().erase(it);
      } else {
        ++it;
      }
    }
  }
  // A reset ends the context and its errors: damage these frees found (cohort
  // printed it) is not raised by a call after the reset.
  try {
    cohort::host::raise_pending_memory_fault();
  } catch (const cohort::error&) {
  }
}

}  // namespace cohort::compat::detail

namespace cohort::compat {

using namespace detail;

cudaError_t copy_to_symbol(void* symbol, std::size_t symbol_bytes, const void* src, std::size_t count,
                           std::size_t offset, cudaMemcpyKind kind, cudaStream_t stream) {
  if (offset > symbol_bytes || count > symbol_bytes - offset)
    return fail(cudaErrorInvalidValue, "cudaMemcpyToSymbol: " + std::to_string(count) + " bytes at offset " +
                                           std::to_string(offset) + " do not fit the symbol's " +
                                           std::to_string(symbol_bytes) + " bytes");
  if (kind != cudaMemcpyHostToDevice && kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
    return fail(cudaErrorInvalidMemcpyDirection,
                "cudaMemcpyToSymbol: the kind must be cudaMemcpyHostToDevice, DeviceToDevice or Default");
  add_region({symbol, symbol_bytes, memory_kind::symbol});
  return copy("cudaMemcpyToSymbol", static_cast<char*>(symbol) + offset, src, count, kind, stream);
}

cudaError_t copy_from_symbol(void* dst, const void* symbol, std::size_t symbol_bytes, std::size_t count,
                             std::size_t offset, cudaMemcpyKind kind, cudaStream_t stream) {
  if (offset > symbol_bytes || count > symbol_bytes - offset)
    return fail(cudaErrorInvalidValue, "cudaMemcpyFromSymbol: " + std::to_string(count) + " bytes at offset " +
                                           std::to_string(offset) + " do not fit the symbol's " +
                                           std::to_string(symbol_bytes) + " bytes");
  if (kind != cudaMemcpyDeviceToHost && kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
    return fail(cudaErrorInvalidMemcpyDirection,
                "cudaMemcpyFromSymbol: the kind must be cudaMemcpyDeviceToHost, DeviceToDevice or Default");
  add_region({symbol, symbol_bytes, memory_kind::symbol});
  return copy("cudaMemcpyFromSymbol", dst, static_cast<const char*>(symbol) + offset, count, kind, stream);
}

cudaError_t finish_synchronous(cudaError_t issued) {
  if (issued != cudaSuccess) return issued;
  // On a stream's own thread (a graph's node) the call ran there and then;
  // waiting for the legacy stream would wait for the task making the call.
  if (on_stream_thread()) return cudaSuccess;
  if (const cudaError_t e = synchronize_stream(nullptr)) return e;
  return sticky();  // a fault of the work it waited for
}

cudaError_t symbol_address(void** address_out, const void* symbol, std::size_t symbol_bytes) {
  if (const cudaError_t e = sticky()) return e;
  if (address_out == nullptr)
    return fail(cudaErrorInvalidValue, "cudaGetSymbolAddress: the pointer to store into is null");
  add_region({symbol, symbol_bytes, memory_kind::symbol});
  *address_out = const_cast<void*>(symbol);
  return cudaSuccess;
}

}  // namespace cohort::compat

using namespace cohort::compat::detail;

cudaError_t cudaMalloc(void** devPtr, size_t size) { return allocate("cudaMalloc", devPtr, size, memory_kind::device); }

cudaError_t cudaMallocManaged(void** devPtr, size_t size, unsigned int flags) {
  if (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost)
    return fail(cudaErrorInvalidValue, "cudaMallocManaged: flags must be cudaMemAttachGlobal or cudaMemAttachHost");
  return allocate("cudaMallocManaged", devPtr, size, memory_kind::managed);
}

cudaError_t cudaMallocHost(void** ptr, size_t size) {
  return allocate("cudaMallocHost", ptr, size, memory_kind::pinned_host);
}

cudaError_t cudaHostAlloc(void** ptr, size_t size, unsigned int) {
  return allocate("cudaHostAlloc", ptr, size, memory_kind::pinned_host);
}

namespace {

// Takes a device or managed allocation out of the regions, or refuses a pointer that is not one.
cudaError_t take_allocation(const char* call, void* p) {
  region r;
  if (remove_region(p, memory_kind::device, &r)) return cudaSuccess;
  if (remove_region(p, memory_kind::managed, &r)) {
    forget_advice(r.base, r.bytes);
    return cudaSuccess;
  }
  return fail(cudaErrorInvalidValue, std::string(call) + ": " + address(p) +
                                         " is not the start of a live allocation made by cudaMalloc or "
                                         "cudaMallocManaged (already freed?)");
}

}  // namespace

cudaError_t cudaFree(void* devPtr) {
  refuse_in_kernel("cudaFree");
  wait_for_all_work();  // queued work may still use the memory: CUDA's cudaFree waits for the device too
  if (const cudaError_t e = sticky()) return e;
  if (devPtr == nullptr) return cudaSuccess;
  if (const cudaError_t e = take_allocation("cudaFree", devPtr)) return e;
  try {
    // The damage this free finds in the allocation's redzones is this call's
    // fault (cohort's free_device, which may run in a destructor, would print
    // it and leave it for the next call).
    cohort::host::release_device_checked(devPtr);
    cohort::host::raise_pending_memory_fault();  // damage an earlier free found, in a destructor
  } catch (const cohort::error& e) {
    return fail(e, "cudaFree");
  }
  return cudaSuccess;
}

cudaError_t cudaFreeHost(void* ptr) {
  refuse_in_kernel("cudaFreeHost");
  wait_for_all_work();  // queued work may still use the memory
  if (const cudaError_t e = sticky()) return e;
  if (ptr == nullptr) return cudaSuccess;
  region r;
  if (!remove_region(ptr, memory_kind::pinned_host, &r))
    return fail(cudaErrorInvalidValue,
                "cudaFreeHost: " + address(ptr) + " is not a live allocation made by cudaMallocHost or cudaHostAlloc");
  std::free(ptr);
  return cudaSuccess;
}

cudaError_t cudaHostRegister(void* ptr, size_t size, unsigned int) {
  if (const cudaError_t e = sticky()) return e;
  if (ptr == nullptr || size == 0) return fail(cudaErrorInvalidValue, "cudaHostRegister: a null or empty range");
  region r;
  if (find_region(ptr, 1, &r))
    return fail(cudaErrorHostMemoryAlreadyRegistered,
                "cudaHostRegister: " + address(ptr) + " lies in memory the runtime already knows");
  add_region({ptr, size, memory_kind::registered_host});
  return cudaSuccess;
}

cudaError_t cudaHostUnregister(void* ptr) {
  if (const cudaError_t e = sticky()) return e;
  region r;
  if (!remove_region(ptr, memory_kind::registered_host, &r))
    return fail(cudaErrorHostMemoryNotRegistered, "cudaHostUnregister: " + address(ptr) + " was not registered");
  return cudaSuccess;
}

cudaError_t cudaHostGetDevicePointer(void** devPtr, void* hostPtr, unsigned int) {
  if (const cudaError_t e = sticky()) return e;
  region r;
  if (devPtr == nullptr || !find_region(hostPtr, 1, &r))
    return fail(cudaErrorInvalidValue,
                "cudaHostGetDevicePointer: " + address(hostPtr) + " is not pinned or registered host memory");
  *devPtr = hostPtr;  // one address space
  return cudaSuccess;
}

cudaError_t cudaMemGetInfo(size_t* free, size_t* total) {
  if (const cudaError_t e = sticky()) return e;
  if (free == nullptr || total == nullptr) return fail(cudaErrorInvalidValue, "cudaMemGetInfo: a null pointer");
  const cohort::device_memory_usage usage = cohort::memory_usage();  // the current device's own memory
  *total = usage.total_bytes;
  *free = usage.free_bytes;
  return cudaSuccess;
}

cudaError_t cudaPointerGetAttributes(cudaPointerAttributes* attributes, const void* ptr) {
  if (const cudaError_t e = sticky()) return e;
  if (attributes == nullptr) return fail(cudaErrorInvalidValue, "cudaPointerGetAttributes: null attributes");
  region r;
  const bool known = find_region(ptr, 1, &r);
  cudaMemoryType type = cudaMemoryTypeUnregistered;
  if (known) {
    switch (r.kind) {
      case memory_kind::device:
      case memory_kind::symbol:
        type = cudaMemoryTypeDevice;
        break;
      case memory_kind::managed:
        type = cudaMemoryTypeManaged;
        break;
      case memory_kind::pinned_host:
      case memory_kind::registered_host:
        type = cudaMemoryTypeHost;
        break;
    }
  }
  attributes->type = type;
  // Device and managed memory belong to the device they were allocated on; the rest to the current one.
  attributes->device = !known                                                            ? -2
                       : r.kind == memory_kind::device || r.kind == memory_kind::managed ? cohort::device_of(r.base)
                                                                                         : cohort::get_device();
  attributes->devicePointer = known ? const_cast<void*>(ptr) : nullptr;
  attributes->hostPointer = type == cudaMemoryTypeDevice ? nullptr : const_cast<void*>(ptr);
  return cudaSuccess;
}

// The synchronous copies and fills are the legacy default stream's work, and
// return once it is done (the work before them included).
cudaError_t cudaMemcpy(void* dst, const void* src, size_t count, cudaMemcpyKind kind) {
  return cohort::compat::finish_synchronous(copy("cudaMemcpy", dst, src, count, kind, nullptr));
}

cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t count, cudaMemcpyKind kind, cudaStream_t stream) {
  return copy("cudaMemcpyAsync", dst, src, count, kind, stream);
}

cudaError_t cudaMemcpyPeer(void* dst, int dstDevice, const void* src, int srcDevice, size_t count) {
  return cohort::compat::finish_synchronous(
      peer_copy("cudaMemcpyPeer", dst, dstDevice, src, srcDevice, count, nullptr));
}

cudaError_t cudaMemcpyPeerAsync(void* dst, int dstDevice, const void* src, int srcDevice, size_t count,
                                cudaStream_t stream) {
  return peer_copy("cudaMemcpyPeerAsync", dst, dstDevice, src, srcDevice, count, stream);
}

// Rows aligned as a GPU aligns them (512 bytes, cudaDevAttrTextureAlignment).
cudaError_t cudaMallocPitch(void** devPtr, size_t* pitch, size_t width, size_t height) {
  if (pitch == nullptr) return fail(cudaErrorInvalidValue, "cudaMallocPitch: null pitch");
  *pitch = (width + 511) / 512 * 512;
  return allocate("cudaMallocPitch", devPtr, *pitch * height, memory_kind::device);
}

cudaError_t cudaMemcpy2D(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                         cudaMemcpyKind kind) {
  return cohort::compat::finish_synchronous(
      copy_2d("cudaMemcpy2D", dst, dpitch, src, spitch, width, height, kind, nullptr));
}

cudaError_t cudaMemcpy2DAsync(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                              cudaMemcpyKind kind, cudaStream_t stream) {
  return copy_2d("cudaMemcpy2DAsync", dst, dpitch, src, spitch, width, height, kind, stream);
}

cudaError_t cudaMemset2D(void* devPtr, size_t pitch, int value, size_t width, size_t height) {
  return cohort::compat::finish_synchronous(fill("cudaMemset2D", devPtr, value, {width, height, 1, pitch}, nullptr));
}

cudaError_t cudaMemset2DAsync(void* devPtr, size_t pitch, int value, size_t width, size_t height, cudaStream_t stream) {
  return fill("cudaMemset2DAsync", devPtr, value, {width, height, 1, pitch}, stream);
}

// A pitched pointer's slices are its pitch times its ysize apart (cudaMalloc3D's layout).
cudaError_t cudaMemset3D(cudaPitchedPtr pitchedDevPtr, int value, cudaExtent extent) {
  const fill_shape shape{extent.width, extent.height, extent.depth, pitchedDevPtr.pitch,
                         pitchedDevPtr.pitch * pitchedDevPtr.ysize};
  return cohort::compat::finish_synchronous(fill("cudaMemset3D", pitchedDevPtr.ptr, value, shape, nullptr));
}

cudaError_t cudaMemset3DAsync(cudaPitchedPtr pitchedDevPtr, int value, cudaExtent extent, cudaStream_t stream) {
  const fill_shape shape{extent.width, extent.height, extent.depth, pitchedDevPtr.pitch,
                         pitchedDevPtr.pitch * pitchedDevPtr.ysize};
  return fill("cudaMemset3DAsync", pitchedDevPtr.ptr, value, shape, stream);
}

// Stream-ordered allocation: memory ready at once is ready when the stream reaches it.
cudaError_t cudaMallocAsync(void** devPtr, size_t size, cudaStream_t stream) {
  if (!valid_stream(stream)) return bad_stream("cudaMallocAsync", stream);
  return allocate("cudaMallocAsync", devPtr, size, memory_kind::device);
}

cudaError_t cudaFreeAsync(void* devPtr, cudaStream_t stream) {
  refuse_in_kernel("cudaFreeAsync");
  if (!valid_stream(stream)) return bad_stream("cudaFreeAsync", stream);
  if (runs_inline(stream)) return cudaFree(devPtr);
  if (const cudaError_t e = sticky()) return e;
  if (devPtr == nullptr) return cudaSuccess;
  if (const cudaError_t e = take_allocation("cudaFreeAsync", devPtr)) return e;
  // Released once the stream's earlier work, which may use it, is done.
  return enqueue("cudaFreeAsync", stream, task_kind::always,
                 stream_task([devPtr](cudaError_t) { cohort::host::release_device_checked(devPtr); }));
}

cudaError_t cudaMemset(void* devPtr, int value, size_t count) {
  return cohort::compat::finish_synchronous(fill("cudaMemset", devPtr, value, {count, 1, 1, count}, nullptr));
}

cudaError_t cudaMemsetAsync(void* devPtr, int value, size_t count, cudaStream_t stream) {
  return fill("cudaMemsetAsync", devPtr, value, {count, 1, 1, count}, stream);
}
