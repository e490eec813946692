// Streams and events. A launch or copy on the host backend has completed when
// it returns, so streams order nothing and every event is complete once
// recorded; an event's time is the moment it was recorded, so elapsed times
// are the real times of the work between two records.
#include <chrono>
#include <mutex>
#include <optional>
#include <set>

#include "runtime_state.hpp"

struct CUstream_st {
  unsigned flags = 0;
  int priority = 0;
  int device = 0;  // the current device when it was created, as in CUDA
};

struct CUevent_st {
  unsigned flags = 0;
  std::optional<std::chrono::steady_clock::time_point> recorded;
};

namespace cohort::compat::detail {

namespace {

std::mutex handles_mutex;

// Built on first use: a program may create handles from a static initializer.
std::set<cudaStream_t>& streams() {
  static std::set<cudaStream_t> live;
  return live;
}
std::set<cudaEvent_t>& events() {
  static std::set<cudaEvent_t> live;
  return live;
}

bool valid_event(cudaEvent_t event) {
  std::lock_guard lock(handles_mutex);
  return events().count(event) != 0;
}

cudaError_t bad_event(const char* call, cudaEvent_t event) {
  return fail(cudaErrorInvalidResourceHandle,
              std::string(call) + ": event " + address(event) + " was not created by cudaEventCreate or was destroyed");
}

}  // namespace

cudaError_t bad_stream(const std::string& call, cudaStream_t stream) {
  return fail(cudaErrorInvalidResourceHandle,
              call + ": stream " + address(stream) + " was not created by cudaStreamCreate or was destroyed");
}

int stream_device(cudaStream_t stream) {
  if (stream == nullptr || stream == cudaStreamLegacy || stream == cudaStreamPerThread) return cohort::get_device();
  return stream->device;
}

bool valid_stream(cudaStream_t stream) {
  if (stream == nullptr || stream == cudaStreamLegacy || stream == cudaStreamPerThread) return true;
  std::lock_guard lock(handles_mutex);
  return streams().count(stream) != 0;
}

}  // namespace cohort::compat::detail

using namespace cohort::compat::detail;
using cohort::compat::capture_event_record;
using cohort::compat::capture_event_wait;
using cohort::compat::capture_operation;
using cohort::compat::capturing;

cudaError_t cudaStreamCreateWithPriority(cudaStream_t* stream, unsigned int flags, int priority) {
  if (const cudaError_t e = sticky()) return e;
  if (stream == nullptr) return fail(cudaErrorInvalidValue, "cudaStreamCreate: null stream");
  *stream = new CUstream_st{flags, priority, cohort::get_device()};
  std::lock_guard lock(handles_mutex);
  streams().insert(*stream);
  return cudaSuccess;
}

cudaError_t cudaStreamCreate(cudaStream_t* stream) { return cudaStreamCreateWithPriority(stream, 0, 0); }

cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned int flags) {
  return cudaStreamCreateWithPriority(stream, flags, 0);
}

cudaError_t cudaStreamDestroy(cudaStream_t stream) {
  if (const cudaError_t e = sticky()) return e;
  {
    std::lock_guard lock(handles_mutex);
    if (streams().erase(stream) == 0) return bad_stream("cudaStreamDestroy", stream);
  }
  delete stream;
  return cudaSuccess;
}

cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
  if (const cudaError_t e = sticky()) return e;
  if (!valid_stream(stream)) return bad_stream("cudaStreamSynchronize", stream);
  if (capturing(stream))
    return fail(cudaErrorStreamCaptureUnsupported, "cudaStreamSynchronize: stream " + address(stream) +
                                                       " is being captured: end the capture first");
  return cudaSuccess;
}

cudaError_t cudaStreamQuery(cudaStream_t stream) { return cudaStreamSynchronize(stream); }

cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int) {
  if (const cudaError_t e = sticky()) return e;
  if (!valid_stream(stream)) return bad_stream("cudaStreamWaitEvent", stream);
  if (!valid_event(event)) return bad_event("cudaStreamWaitEvent", event);
  capture_event_wait(stream, event);  // a stream waiting for a captured event joins the capture
  return cudaSuccess;
}

cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback, void* userData, unsigned int) {
  if (const cudaError_t e = sticky()) return e;
  if (!valid_stream(stream)) return bad_stream("cudaStreamAddCallback", stream);
  if (callback == nullptr) return fail(cudaErrorInvalidValue, "cudaStreamAddCallback: null callback");
  if (capturing(stream))
    return fail(cudaErrorStreamCaptureUnsupported,
                "cudaStreamAddCallback: not allowed during stream capture (as in CUDA): use cudaLaunchHostFunc");
  callback(stream, cudaSuccess, userData);
  return cudaSuccess;
}

cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void* userData) {
  if (const cudaError_t e = sticky()) return e;
  if (!valid_stream(stream)) return bad_stream("cudaLaunchHostFunc", stream);
  if (fn == nullptr) return fail(cudaErrorInvalidValue, "cudaLaunchHostFunc: null function");
  if (capturing(stream))
    return capture_operation(stream, cudaGraphNodeTypeHost, [=] {
      fn(userData);
      return cudaSuccess;
    });
  fn(userData);
  return cudaSuccess;
}

cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned int flags) {
  if (const cudaError_t e = sticky()) return e;
  if (event == nullptr) return fail(cudaErrorInvalidValue, "cudaEventCreate: null event");
  *event = new CUevent_st{flags, std::nullopt};
  std::lock_guard lock(handles_mutex);
  events().insert(*event);
  return cudaSuccess;
}

cudaError_t cudaEventCreate(cudaEvent_t* event) { return cudaEventCreateWithFlags(event, cudaEventDefault); }

cudaError_t cudaEventDestroy(cudaEvent_t event) {
  if (const cudaError_t e = sticky()) return e;
  {
    std::lock_guard lock(handles_mutex);
    if (events().erase(event) == 0) return bad_event("cudaEventDestroy", event);
  }
  delete event;
  return cudaSuccess;
}

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
  if (const cudaError_t e = sticky()) return e;
  if (!valid_event(event)) return bad_event("cudaEventRecord", event);
  if (!valid_stream(stream)) return bad_stream("cudaEventRecord", stream);
  if (capture_event_record(event, stream)) return cudaSuccess;  // the event stands for the work captured so far
  event->recorded = std::chrono::steady_clock::now();
  return cudaSuccess;
}

cudaError_t cudaEventSynchronize(cudaEvent_t event) {
  if (const cudaError_t e = sticky()) return e;
  return valid_event(event) ? cudaSuccess : bad_event("cudaEventSynchronize", event);
}

cudaError_t cudaEventQuery(cudaEvent_t event) { return cudaEventSynchronize(event); }

cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end) {
  if (const cudaError_t e = sticky()) return e;
  if (ms == nullptr) return fail(cudaErrorInvalidValue, "cudaEventElapsedTime: null result");
  if (!valid_event(start)) return bad_event("cudaEventElapsedTime", start);
  if (!valid_event(end)) return bad_event("cudaEventElapsedTime", end);
  if ((start->flags | end->flags) & cudaEventDisableTiming)
    return fail(cudaErrorInvalidResourceHandle, "cudaEventElapsedTime: an event was created with cudaEventDisableTiming");
  if (!start->recorded || !end->recorded)
    return fail(cudaErrorInvalidResourceHandle, "cudaEventElapsedTime: an event has not been recorded");
  *ms = std::chrono::duration<float, std::milli>(*end->recorded - *start->recorded).count();
  return cudaSuccess;
}
