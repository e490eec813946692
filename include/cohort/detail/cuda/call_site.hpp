// cohort::call_site on the CUDA backend: empty. The public functions take the
// same defaulted last parameter as on the host backend (where it locates a
// diagnostic), so that both backends declare one signature; here it costs
// nothing and the compiler drops it.
#pragma once

namespace cohort {
struct call_site {
  __host__ __device__ static constexpr call_site current() noexcept { return {}; }
};
}  // namespace cohort
