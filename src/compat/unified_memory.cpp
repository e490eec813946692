// Unified memory's hints, cudaMemPrefetchAsync and cudaMemAdvise. Kernels run
// on the CPU, so managed memory is already where every processor reads it and
// a hint moves nothing; each is checked as CUDA 13 checks it (the codes were
// seen on an H200), so that a hint a GPU refuses is refused here too.
#include <filesystem>
#include <string>

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
    case cudaMemAdviseSetReadMostly: *rule = {"cudaMemAdviseSetReadMostly", location_use::ignored}; return true;
    case cudaMemAdviseUnsetReadMostly: *rule = {"cudaMemAdviseUnsetReadMostly", location_use::ignored}; return true;
    case cudaMemAdviseSetPreferredLocation:
      *rule = {"cudaMemAdviseSetPreferredLocation", location_use::placement};
      return true;
    case cudaMemAdviseUnsetPreferredLocation:
      *rule = {"cudaMemAdviseUnsetPreferredLocation", location_use::ignored};
      return true;
    case cudaMemAdviseSetAccessedBy: *rule = {"cudaMemAdviseSetAccessedBy", location_use::processor}; return true;
    case cudaMemAdviseUnsetAccessedBy: *rule = {"cudaMemAdviseUnsetAccessedBy", location_use::processor}; return true;
  }
  return false;
}

// Node 0 exists on every machine, also where Linux lists no nodes.
bool host_numa_node(int id) {
  return id == 0 || (id > 0 && std::filesystem::exists("/sys/devices/system/node/node" + std::to_string(id)));
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
  const char* not_managed = r.kind == memory_kind::device        ? "device memory from cudaMalloc"
                            : r.kind == memory_kind::pinned_host ? "pinned host memory from cudaMallocHost"
                                                                 : nullptr;
  if (not_managed != nullptr)
    return fail(cudaErrorInvalidValue, call + ": " + address(p) + " is " + not_managed +
                                           ", not managed memory; allocate it with cudaMallocManaged");
  if (!find_region(p, count, &r))
    return fail(cudaErrorInvalidValue, call + ": the range " + address(p) + " + " + std::to_string(count) +
                                           " bytes runs past the end of its allocation of " +
                                           std::to_string(r.bytes) + " bytes at " + address(r.base));
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
    return fail(cudaErrorInvalidValue, call + ": a host NUMA node is not a processor; pass "
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
  return check_location(call, location, location_use::prefetch);
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
  return check_location(call, location, rule.use);
}

cudaError_t cudaMemAdvise(const void* devPtr, size_t count, cudaMemoryAdvise advice, int device) {
  return cudaMemAdvise(devPtr, count, advice, location_of(device));
}
