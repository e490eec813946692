// A stream's properties and attributes: its priority, flags and device
// (cudaStreamGetPriority, ...), and the attributes cudaStreamSetAttribute sets
// (an L2 access-policy window, a synchronization policy, a priority), checked
// as CUDA checks them and read back by cudaStreamGetAttribute.
#include <map>
#include <mutex>
#include <utility>

#include "l2_residency.hpp"
#include "runtime_state.hpp"
#include "stream_handle.hpp"

namespace cohort::compat::detail {

namespace {

std::mutex attributes_mutex;

// The default streams' attributes, per device and handle (0 is the legacy stream).
std::map<std::pair<int, cudaStream_t>, stream_attributes>& default_streams_attributes() {
  static auto* const attributes = new std::map<std::pair<int, cudaStream_t>, stream_attributes>;
  return *attributes;
}

// attributes_mutex held.
stream_attributes& attributes_of(cudaStream_t stream) {
  if (!default_stream(stream)) return stream->attributes;
  return default_streams_attributes()[{cohort::get_device(), stream == nullptr ? cudaStreamLegacy : stream}];
}

cudaError_t not_a_stream_attribute(const std::string& call, cudaStreamAttrID attr) {
  return fail(cudaErrorInvalidValue,
              call + ": attribute " + std::to_string(static_cast<int>(attr)) +
                  " is not a stream's; a stream has cudaStreamAttributeAccessPolicyWindow (1), "
                  "cudaStreamAttributeSynchronizationPolicy (3) and cudaStreamAttributePriority (8)");
}

// The attribute's value, checked; `call` starts a refusal's message.
cudaError_t set_attribute(const std::string& call, stream_attributes& a, cudaStreamAttrID attr,
                          const cudaStreamAttrValue& value) {
  switch (attr) {
    case cudaStreamAttributeAccessPolicyWindow:
      if (const cudaError_t e = check_access_policy_window(call, value.accessPolicyWindow)) return e;
      a.access_policy_window = value.accessPolicyWindow;
      return cudaSuccess;
    case cudaStreamAttributeSynchronizationPolicy:
      if (value.syncPolicy < cudaSyncPolicyAuto || value.syncPolicy > cudaSyncPolicyBlockingSync)
        return fail(cudaErrorInvalidValue, call + ": " + std::to_string(static_cast<int>(value.syncPolicy)) +
                                               " is not a cudaSynchronizationPolicy (1 to 4)");
      a.synchronization_policy = value.syncPolicy;
      return cudaSuccess;
    case cudaStreamAttributePriority:
      a.priority = clamped_priority(value.priority);
      return cudaSuccess;
    default:
      break;
  }
  return not_a_stream_attribute(call, attr);
}

cudaError_t get_attribute(const std::string& call, const stream_attributes& a, cudaStreamAttrID attr,
                          cudaStreamAttrValue* value) {
  switch (attr) {
    case cudaStreamAttributeAccessPolicyWindow:
      value->accessPolicyWindow = a.access_policy_window;
      return cudaSuccess;
    case cudaStreamAttributeSynchronizationPolicy:
      value->syncPolicy = a.synchronization_policy;
      return cudaSuccess;
    case cudaStreamAttributePriority:
      value->priority = a.priority;
      return cudaSuccess;
    default:
      break;
  }
  return not_a_stream_attribute(call, attr);
}

// The checks every call here starts with: no sticky fault, a live stream, somewhere to write.
cudaError_t check_query(const char* call, cudaStream_t stream, const void* out) {
  if (const cudaError_t e = sticky()) return e;
  if (!valid_stream(stream)) return bad_stream(call, stream);
  if (out == nullptr) return fail(cudaErrorInvalidValue, std::string(call) + ": null result");
  return cudaSuccess;
}

}  // namespace

}  // namespace cohort::compat::detail

using namespace cohort::compat::detail;

cudaError_t cudaStreamGetPriority(cudaStream_t hStream, int* priority) {
  if (const cudaError_t e = check_query("cudaStreamGetPriority", hStream, priority)) return e;
  std::lock_guard lock(attributes_mutex);
  *priority = attributes_of(hStream).priority;
  return cudaSuccess;
}

cudaError_t cudaStreamGetFlags(cudaStream_t hStream, unsigned int* flags) {
  if (const cudaError_t e = check_query("cudaStreamGetFlags", hStream, flags)) return e;
  *flags = default_stream(hStream) ? cudaStreamDefault : hStream->flags;
  return cudaSuccess;
}

cudaError_t cudaStreamGetDevice(cudaStream_t hStream, int* device) {
  if (const cudaError_t e = check_query("cudaStreamGetDevice", hStream, device)) return e;
  *device = stream_device(hStream);
  return cudaSuccess;
}

cudaError_t cudaStreamSetAttribute(cudaStream_t hStream, cudaStreamAttrID attr, const cudaStreamAttrValue* value) {
  if (const cudaError_t e = check_query("cudaStreamSetAttribute", hStream, value)) return e;
  std::lock_guard lock(attributes_mutex);
  return set_attribute("cudaStreamSetAttribute", attributes_of(hStream), attr, *value);
}

cudaError_t cudaStreamGetAttribute(cudaStream_t hStream, cudaStreamAttrID attr, cudaStreamAttrValue* value_out) {
  if (const cudaError_t e = check_query("cudaStreamGetAttribute", hStream, value_out)) return e;
  std::lock_guard lock(attributes_mutex);
  return get_attribute("cudaStreamGetAttribute", attributes_of(hStream), attr, value_out);
}
