// The worker threads behind cohort/detail/host/algorithms/parallel_parts.hpp: the
// launches' pool, with the launches' worker count.
#include "cohort/detail/host/algorithms/parallel_parts.hpp"

#include "launch/settings.hpp"
#include "scheduling/worker_pool.hpp"

namespace cohort::detail::host {

unsigned worker_threads() {
  // The pool's cores are counted from it once: later reloads (tests) leave it.
  static const unsigned configured = settings::workers();
  return configured;
}

void run_parts(unsigned parts, void (*job)(void* context, unsigned part), void* context) {
  ::cohort::detail::host::run_on_threads(parts, [job, context](unsigned part) { job(context, part); });
}

}  // namespace cohort::detail::host
