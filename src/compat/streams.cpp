// Streams and events: the handles, their checks, and CUDA's calls over the
// stream queues (stream_order.hpp). An event's time is the moment the work
// recorded before it was done, so elapsed times are the real times of the
// work between two records.
#include <chrono>
#include <memory>
#include <mutex>
#include <set>

#include "runtime_state.hpp"
#include "stream_handle.hpp"
#include "stream_order.hpp"

struct CUevent_st {
  unsigned flags = 0;
  std::shared_ptr<cohort::compat::detail::event_record> recorded;  // null until cudaEventRecord
};

namespace cohort::compat::detail {

namespace {

std::mutex handles_mutex;

// Built on first use: a program may create handles from a static initializer.
// Never destroyed: a handle the program did not destroy stays reachable (no
// leak at exit) and valid for a static destructor's call.
std::set<cudaStream_t>& streams() {
  static auto* const live = new std::set<cudaStream_t>;
  return *live;
}
std::set<cudaEvent_t>& events() {
  static auto* const live = new std::set<cudaEvent_t>;
  return *live;
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
  if (default_stream(stream)) return cohort::get_device();
  return stream->device;
}

std::shared_ptr<stream_queue> queue_of(cudaStream_t stream) { return stream->queue; }

bool valid_stream(cudaStream_t stream) {
  if (default_stream(stream)) return true;
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
  refuse_in_kernel("cudaStreamCreate");
  if (const cudaError_t e = sticky()) return e;
  if (stream == nullptr) return fail(cudaErrorInvalidValue, "cudaStreamCreate: null stream");
  *stream = new CUstream_st{flags, cohort::get_device(), create_stream_queue(flags), {}};
  (*stream)->attributes.priority = clamped_priority(priority);
  std::lock_guard lock(handles_mutex);
  streams().insert(*stream);
  return cudaSuccess;
}

cudaError_t cudaStreamCreate(cudaStream_t* stream) { return cudaStreamCreateWithPriority(stream, 0, 0); }

cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned int flags) {
  return cudaStreamCreateWithPriority(stream, flags, 0);
}

cudaError_t cudaStreamDestroy(cudaStream_t stream) {
  refuse_in_kernel("cudaStreamDestroy");
  if (const cudaError_t e = sticky()) return e;
  {
    std::lock_guard lock(handles_mutex);
    if (streams().erase(stream) == 0) return bad_stream("cudaStreamDestroy", stream);
  }
  retire_stream_queue(stream->queue);  // its work still runs, as CUDA's does after the call returns
  delete stream;
  return cudaSuccess;
}

cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
  refuse_in_kernel("cudaStreamSynchronize");
  if (const cudaError_t e = sticky()) return e;
  if (!valid_stream(stream)) return bad_stream("cudaStreamSynchronize", stream);
  if (capturing(stream))
    return fail(cudaErrorStreamCaptureUnsupported,
                "cudaStreamSynchronize: stream " + address(stream) + " is being captured: end the capture first");
  if (const cudaError_t e = synchronize_stream(stream)) return e;
  return sticky();  // a fault of the work it waited for
}

// cudaErrorNotReady is an answer, not an error: it is not the last error.
cudaError_t cudaStreamQuery(cudaStream_t stream) {
  if (const cudaError_t e = sticky()) return e;
  if (!valid_stream(stream)) return bad_stream("cudaStreamQuery", stream);
  if (!stream_done(stream)) return cudaErrorNotReady;
  return cudaStreamSynchronize(stream);  // done: reports what the work left
}

cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int) {
  if (const cudaError_t e = sticky()) return e;
  if (!valid_stream(stream)) return bad_stream("cudaStreamWaitEvent", stream);
  if (!valid_event(event)) return bad_event("cudaStreamWaitEvent", event);
  capture_event_wait(stream, event);  // a stream waiting for a captured event joins the capture
  if (capturing(stream) || event->recorded == nullptr) return cudaSuccess;  // CUDA: an unrecorded event is complete
  return wait_on_record("cudaStreamWaitEvent", stream, *event->recorded);
}

cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback, void* userData, unsigned int) {
  if (const cudaError_t e = sticky()) return e;
  if (!valid_stream(stream)) return bad_stream("cudaStreamAddCallback", stream);
  if (callback == nullptr) return fail(cudaErrorInvalidValue, "cudaStreamAddCallback: null callback");
  if (capturing(stream))
    return fail(cudaErrorStreamCaptureUnsupported,
                "cudaStreamAddCallback: not allowed during stream capture (as in CUDA): use cudaLaunchHostFunc");
  // Skipped after a kernel fault, like a host function: an H200 (CUDA 13,
  // driver 580) does not call it then, though CUDA's documentation of the
  // callback's status suggests it would (tests/cuda_programs/async_launch_error.cu).
  return issue("cudaStreamAddCallback", stream, task_kind::work, [stream, callback, userData](cudaError_t status) {
    run_host_function([&] { callback(stream, status, userData); });
  });
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
  // Not called where a kernel before it faulted, as CUDA does.
  return issue("cudaLaunchHostFunc", stream, task_kind::work,
               [fn, userData](cudaError_t) { run_host_function([&] { fn(userData); }); });
}

cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned int flags) {
  refuse_in_kernel("cudaEventCreate");
  if (const cudaError_t e = sticky()) return e;
  if (event == nullptr) return fail(cudaErrorInvalidValue, "cudaEventCreate: null event");
  *event = new CUevent_st{flags, nullptr};
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
  refuse_in_kernel("cudaEventRecord");
  if (const cudaError_t e = sticky()) return e;
  if (!valid_event(event)) return bad_event("cudaEventRecord", event);
  if (!valid_stream(stream)) return bad_stream("cudaEventRecord", stream);
  if (capture_event_record(event, stream)) return cudaSuccess;  // the event stands for the work captured so far
  event->recorded = record_on(stream);
  return cudaSuccess;
}

// cudaEventRecordExternal asks a capture for an external event node, which the
// host backend's graphs do not have; outside a capture it is a plain record.
cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream, unsigned int flags) {
  if (flags & ~unsigned{cudaEventRecordExternal})
    return fail(cudaErrorInvalidValue, "cudaEventRecordWithFlags: flags " + std::to_string(flags) +
                                           " are not cudaEventRecordDefault (0) or cudaEventRecordExternal (1)");
  if (flags == cudaEventRecordExternal && capturing(stream))
    return fail(cudaErrorStreamCaptureUnsupported,
                "cudaEventRecordWithFlags: cudaEventRecordExternal in a stream capture (an external event node) is "
                "not supported on the host backend; record the event without the flag");
  return cudaEventRecord(event, stream);
}

cudaError_t cudaEventSynchronize(cudaEvent_t event) {
  refuse_in_kernel("cudaEventSynchronize");
  if (const cudaError_t e = sticky()) return e;
  if (!valid_event(event)) return bad_event("cudaEventSynchronize", event);
  if (event->recorded != nullptr) wait_for_record(*event->recorded);
  return sticky();  // a fault of the work it waited for
}

// cudaErrorNotReady is an answer, not an error: it is not the last error.
cudaError_t cudaEventQuery(cudaEvent_t event) {
  if (const cudaError_t e = sticky()) return e;
  if (!valid_event(event)) return bad_event("cudaEventQuery", event);
  return event->recorded == nullptr || record_done(*event->recorded) ? cudaSuccess : cudaErrorNotReady;
}

cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end) {
  if (const cudaError_t e = sticky()) return e;
  if (ms == nullptr) return fail(cudaErrorInvalidValue, "cudaEventElapsedTime: null result");
  if (!valid_event(start)) return bad_event("cudaEventElapsedTime", start);
  if (!valid_event(end)) return bad_event("cudaEventElapsedTime", end);
  if ((start->flags | end->flags) & cudaEventDisableTiming)
    return fail(cudaErrorInvalidResourceHandle,
                "cudaEventElapsedTime: an event was created with cudaEventDisableTiming");
  if (!start->recorded || !end->recorded)
    return fail(cudaErrorInvalidResourceHandle, "cudaEventElapsedTime: an event has not been recorded");
  const auto start_time = record_time(*start->recorded);
  const auto end_time = record_time(*end->recorded);
  if (!start_time || !end_time) return cudaErrorNotReady;  // recorded, not yet reached: CUDA's answer
  *ms = std::chrono::duration<float, std::milli>(*end_time - *start_time).count();
  return cudaSuccess;
}
