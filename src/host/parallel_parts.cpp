// The worker threads behind cohort/detail/host/algorithms/parallel_parts.hpp: the
// launches' pool, with the launches' worker count.
#include "cohort/detail/host/algorithms/parallel_parts.hpp"

#include <algorithm>
#include <thread>

#include "env.hpp"
#include "worker_pool.hpp"

namespace cohort::detail::host {

unsigned worker_threads() {
  static const unsigned configured = static_cast<unsigned>(::cohort::detail::host::env_integer(
      "COHORT_WORKERS", std::max(1u, std::thread::hardware_concurrency()), 1, 4096));
  return configured;
}

void run_parts(unsigned parts, void (*job)(void* context, unsigned part), void* context) {
  ::cohort::detail::host::run_on_threads(parts, [job, context](unsigned part) { job(context, part); });
}

}  // namespace cohort::detail::host
