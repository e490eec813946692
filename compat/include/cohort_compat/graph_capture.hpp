// Stream capture's side of the runtime: while a stream is being captured
// (cudaStreamBeginCapture), the asynchronous calls on it become nodes of the
// capture's graph instead of running (src/compat/graphs.cpp). Every such call
// asks first, through a check that costs one relaxed load while nothing is
// being captured.
#pragma once

#include <atomic>
#include <functional>

#include "../driver_types.h"
#include "graph_api.hpp"

namespace cohort::compat {

// How many captures are in progress.
extern std::atomic<int> captures_in_progress;

bool stream_is_capturing(cudaStream_t stream);

inline bool capturing(cudaStream_t stream) {
  return captures_in_progress.load(std::memory_order_relaxed) != 0 && stream_is_capturing(stream);
}

// Records `run` as a node of the graph `stream` is capturing, after the
// stream's previous work. `run` performs the operation when the graph is launched.
cudaError_t capture_operation(cudaStream_t stream, cudaGraphNodeType type, std::function<cudaError_t()> run);

// cudaEventRecord and cudaStreamWaitEvent during a capture: the event stands
// for the recording stream's work so far, and a stream that waits for it joins
// the capture after that work. False when no capture is involved.
bool capture_event_record(cudaEvent_t event, cudaStream_t stream);
bool capture_event_wait(cudaStream_t stream, cudaEvent_t event);

}  // namespace cohort::compat
