// The stream handle a launch_config carries on the host backend. Never
// dereferenced: the host backend completes every launch before returning.
#pragma once

namespace cohort {
struct host_stream;
using stream_t = host_stream*;
}  // namespace cohort
