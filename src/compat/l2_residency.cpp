#include "l2_residency.hpp"

#include <cstring>

#include "runtime_state.hpp"

namespace cohort::compat::detail {

namespace {

// The field's bits as an int: a program may store any int there, which a load
// as cudaAccessProperty (an enum without a fixed type) may not read.
int raw_value(const cudaAccessProperty& p) {
  static_assert(sizeof(cudaAccessProperty) == sizeof(int));
  int value = 0;
  std::memcpy(&value, &p, sizeof value);
  return value;
}

bool access_property(const cudaAccessProperty& p) {
  const int v = raw_value(p);
  return v == cudaAccessPropertyNormal || v == cudaAccessPropertyStreaming || v == cudaAccessPropertyPersisting;
}

}  // namespace

cudaError_t check_access_policy_window(const std::string& call, const cudaAccessPolicyWindow& window) {
  if (window.num_bytes > static_cast<std::size_t>(access_policy_max_window))
    return fail(cudaErrorInvalidValue, call + ": the access policy window's num_bytes, " +
                                           std::to_string(window.num_bytes) + ", is over the device's maximum of " +
                                           std::to_string(access_policy_max_window) +
                                           " bytes (cudaDeviceProp::accessPolicyMaxWindowSize)");
  if (!(window.hitRatio >= 0.0f && window.hitRatio <= 1.0f))
    return fail(cudaErrorInvalidValue, call + ": the access policy window's hitRatio, " +
                                           std::to_string(window.hitRatio) + ", is not between 0 and 1");
  if (!access_property(window.hitProp) || !access_property(window.missProp))
    return fail(cudaErrorInvalidValue,
                call + ": the access policy window's hitProp (" + std::to_string(raw_value(window.hitProp)) +
                    ") or missProp (" + std::to_string(raw_value(window.missProp)) + ") is not a cudaAccessProperty");
  if (window.missProp == cudaAccessPropertyPersisting)
    return fail(cudaErrorInvalidValue, call +
                                           ": the access policy window's missProp is cudaAccessPropertyPersisting; "
                                           "CUDA takes cudaAccessPropertyNormal or cudaAccessPropertyStreaming "
                                           "there");
  return cudaSuccess;
}

}  // namespace cohort::compat::detail
