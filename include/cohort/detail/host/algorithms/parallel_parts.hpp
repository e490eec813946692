// Host-side work split over the runtime's worker threads (COHORT_WORKERS, as
// launches are): for the whole-array algorithms, which run as plain loops
// rather than as kernels.
#pragma once

#include <utility>

namespace cohort::detail::host {

// How many OS threads a launch or a parallel algorithm uses: COHORT_WORKERS,
// by default the hardware threads.
unsigned worker_threads();

// Runs job(context, part) for every part in [0, parts), each on its own worker
// thread (part 0 on the caller's); returns when all have returned.
void run_parts(unsigned parts, void (*job)(void* context, unsigned part), void* context);

template <class F>
void for_each_part(unsigned parts, F&& f) {
  run_parts(
      parts, [](void* context, unsigned part) { (*static_cast<std::remove_reference_t<F>*>(context))(part); }, &f);
}

}  // namespace cohort::detail::host
