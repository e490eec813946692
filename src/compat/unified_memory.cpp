// Unified memory's hints, cudaMemPrefetchAsync, cudaMemAdvise and
// cudaStreamAttachMemAsync. Kernels run on the CPU, so managed memory is
// already where every processor reads it and a hint moves nothing; each is
// checked as CUDA 13 checks it (the codes were seen on an H200), so that a
// hint a GPU refuses is refused here too, and the advice and prefetches are
// recorded for cudaMemRangeGetAttribute to read back.
#include <filesystem>
#include <optional>
#include <set>
#include <string>

#include "managed_advice.hpp"
#include "runtime_state.hpp"

namespace cohort::compat::detail {

namespace {

// What a call does with its location: cudaMemPrefetchAsync moves the range
// there; cudaMemAdviseSetPreferredLocation names a place for it; the
// accessed-by advice names a processor; the other advice ignores it.
enum class location_use { prefetch, placement, processor, ignored };

struct advice_rule {
  const char* name;
  location_use use;
};

bool advice_known(cudaMemoryAdvise advice, advice_rule* rule) {
  switch (advice) {
    case cudaMemAdviseSetReadMostly:
      *rule = {"cudaMemAdviseSetReadMostly", location_use::ignored};
      return true;
    case cudaMemAdviseUnsetReadMostly:
      *rule = {"cudaMemAdviseUnsetReadMostly", location_use::ignored};
      return true;
    case cudaMemAdviseSetPreferredLocation:
      *rule = {"cudaMemAdviseSetPreferredLocation", location_use::placement};
      return true;
    case cudaMemAdviseUnsetPreferredLocation:
      *rule = {"cudaMemAdviseUnsetPreferredLocation", location_use::ignored};
      return true;
    case cudaMemAdviseSetAccessedBy:
      *rule = {"cudaMemAdviseSetAccessedBy", location_use::processor};
      return true;
    case cudaMemAdviseUnsetAccessedBy:
      *rule = {"cudaMemAdviseUnsetAccessedBy", location_use::processor};
      return true;
  }
  return false;
}

// Node 0 exists on every machine, also where Linux lists no nodes.
bool host_numa_node(int id) {
  return id == 0 || (id > 0 && std::filesystem::exists("/sys/devices/system/node/node" + std::to_string(id)));
}

// Refuses the runtime's memory that is not managed: cudaMalloc's and cudaMallocHost's.
cudaError_t refuse_unmanaged(const std::string& call, const void* p, const region& r) {
  const char* not_managed = r.kind == memory_kind::device        ? "device memory from cudaMalloc"
                            : r.kind == memory_kind::pinned_host ? "pinned host memory from cudaMallocHost"
                                                                 : nullptr;
  if (not_managed == nullptr) return cudaSuccess;
  return fail(cudaErrorInvalidValue, call + ": " + address(p) + " is " + not_managed +
                                         ", not managed memory; allocate it with cudaMallocManaged");
}

// CUDA takes managed memory, or system memory where the device reaches
// pageable memory (cudaDevAttrPageableMemoryAccess, 1 here): memory the
// runtime did not hand out. Memory from cudaMalloc or cudaMallocHost is
// neither. A symbol is taken: __managed__ and __device__ variables are alike
// ordinary objects on the host, and the runtime cannot tell them apart.
cudaError_t check_range(const std::string& call, const void* p, std::size_t count) {
  if (p == nullptr || count == 0)
    return fail(cudaErrorInvalidValue, call + ": the range " + address(p) + " + " + std::to_string(count) +
                                           " bytes is null or empty; pass managed memory and its size in bytes");
  region r;
  if (!find_region(p, 1, &r)) return cudaSuccess;
  if (const cudaError_t e = refuse_unmanaged(call, p, r)) return e;
  if (!find_region(p, count, &r))
    return fail(cudaErrorInvalidValue, call + ": the range " + address(p) + " + " + std::to_string(count) +
                                           " bytes runs past the end of its allocation of " + std::to_string(r.bytes) +
                                           " bytes at " + address(r.base));
  return cudaSuccess;
}

// CUDA checks the location's type for every call, and for the calls that use
// it the device (cudaMemPrefetchAsync reports a missing one as an invalid
// device, cudaMemAdvise as an invalid value) and the host NUMA node.
cudaError_t check_location(const std::string& call, const cudaMemLocation& l, location_use use) {
  const bool numa = l.type == cudaMemLocationTypeHostNuma || l.type == cudaMemLocationTypeHostNumaCurrent;
  if (l.type != cudaMemLocationTypeDevice && l.type != cudaMemLocationTypeHost && !numa)
    return fail(cudaErrorInvalidValue, call + ": location type " + std::to_string(static_cast<int>(l.type)) +
                                           " is not a cudaMemLocationType; pass cudaMemLocationTypeDevice and a "
                                           "device number, or cudaMemLocationTypeHost");
  if (use == location_use::ignored) return cudaSuccess;
  if (numa && use == location_use::processor)
    return fail(cudaErrorInvalidValue, call +
                                           ": a host NUMA node is not a processor; pass "
                                           "cudaMemLocationTypeDevice and a device number, or "
                                           "cudaMemLocationTypeHost");
  if (l.type == cudaMemLocationTypeDevice && (l.id < 0 || l.id >= cohort::device_count()))
    return fail(use == location_use::prefetch ? cudaErrorInvalidDevice : cudaErrorInvalidValue,
                no_such_device(call, l.id));
  if (l.type == cudaMemLocationTypeHostNuma && !host_numa_node(l.id))
    return fail(cudaErrorInvalidValue, call + ": host NUMA node " + std::to_string(l.id) +
                                           " does not exist; pass one that /sys/devices/system/node lists, or "
                                           "cudaMemLocationTypeHost");
  return cudaSuccess;
}

// A location as CUDA 12's device numbers name it: a device, the host as
// cudaCpuDeviceId; anything else (none, a NUMA node) is cudaInvalidDeviceId.
int device_number(const cudaMemLocation& l) {
  return l.type == cudaMemLocationTypeDevice ? l.id
         : l.type == cudaMemLocationTypeHost ? cudaCpuDeviceId
                                             : cudaInvalidDeviceId;
}

void take_advice(range_advice& a, cudaMemoryAdvise advice, const cudaMemLocation& location) {
  switch (advice) {
    case cudaMemAdviseSetReadMostly:
      a.read_mostly = true;
      break;
    case cudaMemAdviseUnsetReadMostly:
      a.read_mostly = false;
      break;
    case cudaMemAdviseSetPreferredLocation:
      a.preferred = location;
      break;
    case cudaMemAdviseUnsetPreferredLocation:
      a.preferred = {cudaMemLocationTypeInvalid, 0};
      break;
    case cudaMemAdviseSetAccessedBy:
      a.accessed_by.insert(device_number(location));
      break;
    case cudaMemAdviseUnsetAccessedBy:
      a.accessed_by.erase(device_number(location));
      break;
  }
}

// The location every byte of the range has in `field`, or none where they differ.
cudaMemLocation common_location(const void* p, std::size_t count, cudaMemLocation range_advice::* field) {
  std::optional<cudaMemLocation> common;
  bool uniform = true;
  visit_advice(p, count, [&](const range_advice& a) {
    const cudaMemLocation& l = a.*field;
    if (!common) common = l;
    uniform = uniform && l.type == common->type && l.id == common->id;
  });
  return uniform && common ? *common : cudaMemLocation{cudaMemLocationTypeInvalid, 0};
}

// The 32-bit answers, one per attribute; dataSize is checked before.
int range_answer(cudaMemRangeAttribute attribute, const void* p, std::size_t count) {
  switch (attribute) {
    case cudaMemRangeAttributeReadMostly: {
      bool all = true;
      visit_advice(p, count, [&](const range_advice& a) { all = all && a.read_mostly; });
      return all ? 1 : 0;
    }
    case cudaMemRangeAttributePreferredLocation:
      return device_number(common_location(p, count, &range_advice::preferred));
    case cudaMemRangeAttributeLastPrefetchLocation:
      return device_number(common_location(p, count, &range_advice::last_prefetch));
    case cudaMemRangeAttributePreferredLocationType:
      return common_location(p, count, &range_advice::preferred).type;
    case cudaMemRangeAttributeLastPrefetchLocationType:
      return common_location(p, count, &range_advice::last_prefetch).type;
    case cudaMemRangeAttributePreferredLocationId:
      return common_location(p, count, &range_advice::preferred).id;
    case cudaMemRangeAttributeLastPrefetchLocationId:
      return common_location(p, count, &range_advice::last_prefetch).id;
    default:
      return 0;  // cudaMemRangeAttributeAccessedBy: a list (accessed_by_answer)
  }
}

// The processors every byte of the range is advised accessed by, cudaInvalidDeviceId after them.
void accessed_by_answer(int* out, std::size_t slots, const void* p, std::size_t count) {
  std::optional<std::set<int>> common;
  visit_advice(p, count, [&](const range_advice& a) {
    if (!common) {
      common = a.accessed_by;
      return;
    }
    std::erase_if(*common, [&](int d) { return a.accessed_by.count(d) == 0; });
  });
  std::size_t i = 0;
  for (const int d : *common)
    if (i < slots) out[i++] = d;
  for (; i < slots; ++i) out[i] = cudaInvalidDeviceId;
}

const char* range_attribute_name(cudaMemRangeAttribute attribute) {
  switch (attribute) {
    case cudaMemRangeAttributeReadMostly:
      return "cudaMemRangeAttributeReadMostly";
    case cudaMemRangeAttributePreferredLocation:
      return "cudaMemRangeAttributePreferredLocation";
    case cudaMemRangeAttributeAccessedBy:
      return "cudaMemRangeAttributeAccessedBy";
    case cudaMemRangeAttributeLastPrefetchLocation:
      return "cudaMemRangeAttributeLastPrefetchLocation";
    case cudaMemRangeAttributePreferredLocationType:
      return "cudaMemRangeAttributePreferredLocationType";
    case cudaMemRangeAttributePreferredLocationId:
      return "cudaMemRangeAttributePreferredLocationId";
    case cudaMemRangeAttributeLastPrefetchLocationType:
      return "cudaMemRangeAttributeLastPrefetchLocationType";
    case cudaMemRangeAttributeLastPrefetchLocationId:
      return "cudaMemRangeAttributeLastPrefetchLocationId";
  }
  return nullptr;
}

// Where cudaStreamAttachMemAsync may attach: managed memory (a __managed__
// variable too) whole, or a non-empty range of system memory.
cudaError_t check_attachment(const std::string& call, const void* p, std::size_t length) {
  if (p == nullptr) return fail(cudaErrorInvalidValue, call + ": null devPtr; pass managed memory");
  region r;
  if (!find_region(p, 1, &r) || r.kind == memory_kind::registered_host) {
    if (length == 0)
      return fail(cudaErrorInvalidValue, call + ": " + address(p) +
                                             " is system memory, which takes a length; "
                                             "pass the length in bytes (0 means a whole managed allocation)");
    return cudaSuccess;
  }
  if (const cudaError_t e = refuse_unmanaged(call, p, r)) return e;
  if (p != r.base || (length != 0 && length != r.bytes))
    return fail(cudaErrorInvalidValue, call + ": " + address(p) + " + " + std::to_string(length) +
                                           " bytes is part of the managed allocation of " + std::to_string(r.bytes) +
                                           " bytes at " + address(r.base) +
                                           "; attach the whole allocation (its start, and length 0 or its size)");
  return cudaSuccess;
}

// CUDA 12's forms name a device, or the host as cudaCpuDeviceId.
cudaMemLocation location_of(int device) {
  if (device == cudaCpuDeviceId) return {cudaMemLocationTypeHost, 0};
  return {cudaMemLocationTypeDevice, device};
}

}  // namespace

}  // namespace cohort::compat::detail

using namespace cohort::compat::detail;

cudaError_t cudaMemPrefetchAsync(const void* devPtr, size_t count, cudaMemLocation location, unsigned int flags,
                                 cudaStream_t stream) {
  if (const cudaError_t e = sticky()) return e;
  const std::string call = "cudaMemPrefetchAsync";
  if (!valid_stream(stream)) return bad_stream(call, stream);
  if (flags != 0)
    return fail(cudaErrorInvalidValue,
                call + ": flags " + std::to_string(flags) + " are not 0; CUDA defines none yet, pass 0");
  if (const cudaError_t e = check_range(call, devPtr, count)) return e;
  if (const cudaError_t e = check_location(call, location, location_use::prefetch)) return e;
  change_advice(devPtr, count, [&](range_advice& a) { a.last_prefetch = location; });
  return cudaSuccess;
}

cudaError_t cudaMemPrefetchAsync(const void* devPtr, size_t count, int dstDevice, cudaStream_t stream) {
  return cudaMemPrefetchAsync(devPtr, count, location_of(dstDevice), 0, stream);
}

cudaError_t cudaMemAdvise(const void* devPtr, size_t count, cudaMemoryAdvise advice, cudaMemLocation location) {
  if (const cudaError_t e = sticky()) return e;
  advice_rule rule;
  if (!advice_known(advice, &rule))
    return fail(cudaErrorInvalidValue, "cudaMemAdvise: advice " + std::to_string(static_cast<int>(advice)) +
                                           " is not a cudaMemoryAdvise; pass one of cudaMemAdviseSetReadMostly (1) "
                                           "to cudaMemAdviseUnsetAccessedBy (6)");
  const std::string call = std::string("cudaMemAdvise(") + rule.name + ")";
  if (const cudaError_t e = check_range(call, devPtr, count)) return e;
  if (const cudaError_t e = check_location(call, location, rule.use)) return e;
  change_advice(devPtr, count, [&](range_advice& a) { take_advice(a, advice, location); });
  return cudaSuccess;
}

cudaError_t cudaMemAdvise(const void* devPtr, size_t count, cudaMemoryAdvise advice, int device) {
  return cudaMemAdvise(devPtr, count, advice, location_of(device));
}

cudaError_t cudaMemRangeGetAttribute(void* data, size_t dataSize, cudaMemRangeAttribute attribute, const void* devPtr,
                                     size_t count) {
  if (const cudaError_t e = sticky()) return e;
  const char* name = range_attribute_name(attribute);
  if (name == nullptr)
    return fail(cudaErrorInvalidValue, "cudaMemRangeGetAttribute: attribute " +
                                           std::to_string(static_cast<int>(attribute)) +
                                           " is not a cudaMemRangeAttribute (1 to 8)");
  const std::string call = std::string("cudaMemRangeGetAttribute(") + name + ")";
  if (data == nullptr) return fail(cudaErrorInvalidValue, call + ": null data");
  const bool list = attribute == cudaMemRangeAttributeAccessedBy;
  if (list ? dataSize == 0 || dataSize % 4 != 0 : dataSize != 4)
    return fail(cudaErrorInvalidValue, call + ": dataSize is " + std::to_string(dataSize) +
                                           (list ? "; this attribute is a list of 32-bit device numbers: pass a "
                                                   "non-zero multiple of 4"
                                                 : "; this attribute is 32 bits: pass 4"));
  if (const cudaError_t e = check_range(call, devPtr, count)) return e;
  if (list)
    accessed_by_answer(static_cast<int*>(data), dataSize / 4, devPtr, count);
  else
    *static_cast<int*>(data) = range_answer(attribute, devPtr, count);
  return cudaSuccess;
}

cudaError_t cudaMemRangeGetAttributes(void** data, size_t* dataSizes, cudaMemRangeAttribute* attributes,
                                      size_t numAttributes, const void* devPtr, size_t count) {
  if (const cudaError_t e = sticky()) return e;
  if (data == nullptr || dataSizes == nullptr || attributes == nullptr || numAttributes == 0)
    return fail(cudaErrorInvalidValue,
                "cudaMemRangeGetAttributes: null data, dataSizes or attributes, or "
                "numAttributes 0; pass one entry per attribute in each array");
  for (size_t i = 0; i < numAttributes; ++i)
    if (const cudaError_t e = cudaMemRangeGetAttribute(data[i], dataSizes[i], attributes[i], devPtr, count)) return e;
  return cudaSuccess;
}

// An attachment says which stream's kernels may touch the memory while the
// host touches it too; here every processor is the CPU and sees it at once,
// so the call is checked and changes nothing.
cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, void* devPtr, size_t length, unsigned int flags) {
  if (const cudaError_t e = sticky()) return e;
  const std::string call = "cudaStreamAttachMemAsync";
  if (!valid_stream(stream)) return bad_stream(call, stream);
  if (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost && flags != cudaMemAttachSingle)
    return fail(cudaErrorInvalidValue, call + ": flags " + std::to_string(flags) +
                                           " are not one of cudaMemAttachGlobal, cudaMemAttachHost or "
                                           "cudaMemAttachSingle");
  if (flags == cudaMemAttachSingle && (stream == nullptr || stream == cudaStreamLegacy))
    return fail(cudaErrorInvalidValue, call +
                                           ": cudaMemAttachSingle to the NULL stream, which is not one stream "
                                           "but every stream's; attach to a stream you created, or pass "
                                           "cudaMemAttachGlobal");
  return check_attachment(call, devPtr, length);
}
