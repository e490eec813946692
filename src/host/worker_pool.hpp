// OS threads for running blocks. A launch asks for n of them at once (the
// caller is one); idle ones are reused, more are started when none is idle, so
// concurrent launches from several host threads never wait for each other.
#pragma once

#include <functional>

namespace cohort::detail::host {

// Runs job(0..n-1), each on its own OS thread, job(0) on the caller's; returns
// when all have returned.
void run_on_threads(unsigned n, const std::function<void(unsigned)>& job);

}  // namespace cohort::detail::host
