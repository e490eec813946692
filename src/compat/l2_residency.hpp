// L2 residency control on the host backend: CUDA's access-policy windows (a
// stream's or a launch's attribute) and the persisting set-aside
// (cudaLimitPersistingL2CacheSize). A CPU's caches take no such hints, so they
// are checked as CUDA checks them, recorded, and change nothing but speed on
// a GPU and nothing at all here.
#pragma once

#include <string>

#include "cuda_runtime.h"

namespace cohort::compat::detail {

// The largest window, cudaDeviceProp::accessPolicyMaxWindowSize: what sm_80 to sm_90 GPUs report.
constexpr int access_policy_max_window = 134213632;

// The most of an L2 of `l2_bytes` that may be set aside for persisting lines
// (persistingL2CacheMaxSize): three quarters, as on an H100; 0 where the L2's size is unknown.
constexpr int persisting_l2_max(int l2_bytes) { return l2_bytes / 4 * 3; }

// cudaSuccess for a window CUDA takes, else the refusal, its message starting with `call`.
cudaError_t check_access_policy_window(const std::string& call, const cudaAccessPolicyWindow& window);

}  // namespace cohort::compat::detail
