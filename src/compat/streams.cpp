// Streams and events: the handles, their checks, and CUDA's calls over the
// stream queues (stream_order.hpp). An event's time is the moment the work
// recorded before it was done, so elapsed times are the real times of the
// work between two records.
#include <chrono>
#include <memory>
#include <mutex>
#include <set>

#include "runtime_state.hpp"
#include "stream_order.hpp"

struct CUstream_st {
  unsigned flags = 0;
  int priority = 0;
  std::shared_ptr<cohort::compat::detail::stream_queue> queue;
};

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

std::shared_ptr<stream_queue> queue_of(cudaStream_t stream) { return stream->queue; }

bool valid_stream(cudaStream_t stream) {
  if (stream == nullptr || stream == cudaStreamLegacy || stream == cudaStreamPerThread) return true;
  std::lock_guard lock(handles_mutex);
  return streams().count(stream) != 0;
}

}  // namespace cohort::compat::detail

using namespace cohort::compat::detail;

cudaError_t cudaStreamCreateWithPriority(cudaStream_t* stream, unsigned int flags, int priority) {
  if (const cudaError_t e = sticky()) return e;
  if (stream == nullptr) return fail(cudaErrorInvalidValue, "cudaStreamCreate: null stream");
  *stream = new CUstream_st{flags, priority, create_stream_queue(flags)};
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
  retire_stream_queue(stream->queue);  // its work still runs, as CUDA's does after the call returns
  delete stream;
  return cudaSuccess;
}

cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
  if (const cudaError_t e = sticky()) return e;
  if (!valid_stream(stream)) return bad_stream("cudaStreamSynchronize", stream);
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
  if (event->recorded == nullptr) return cudaSuccess;  // CUDA: an unrecorded event is complete
  return wait_on_record("cudaStreamWaitEvent", stream, *event->recorded);
}

cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback, void* userData, unsigned int) {
  if (const cudaError_t e = sticky()) return e;
  if (!valid_stream(stream)) return bad_stream("cudaStreamAddCallback", stream);
  if (callback == nullptr) return fail(cudaErrorInvalidValue, "cudaStreamAddCallback: null callback");
  // Called with the fault as its status, as CUDA calls it, where a kernel before it faulted.
  return issue("cudaStreamAddCallback", stream, task_kind::callback, [stream, callback, userData](cudaError_t status) {
    run_host_function([&] { callback(stream, status, userData); });
  });
}

cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void* userData) {
  if (const cudaError_t e = sticky()) return e;
  if (!valid_stream(stream)) return bad_stream("cudaLaunchHostFunc", stream);
  if (fn == nullptr) return fail(cudaErrorInvalidValue, "cudaLaunchHostFunc: null function");
  // Not called where a kernel before it faulted, as CUDA does.
  return issue("cudaLaunchHostFunc", stream, task_kind::work,
               [fn, userData](cudaError_t) { run_host_function([&] { fn(userData); }); });
}

cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned int flags) {
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
  if (const cudaError_t e = sticky()) return e;
  if (!valid_event(event)) return bad_event("cudaEventRecord", event);
  if (!valid_stream(stream)) return bad_stream("cudaEventRecord", stream);
  event->recorded = record_on(stream);
  return cudaSuccess;
}

cudaError_t cudaEventSynchronize(cudaEvent_t event) {
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
    return fail(cudaErrorInvalidResourceHandle, "cudaEventElapsedTime: an event was created with cudaEventDisableTiming");
  if (!start->recorded || !end->recorded)
    return fail(cudaErrorInvalidResourceHandle, "cudaEventElapsedTime: an event has not been recorded");
  const auto start_time = record_time(*start->recorded);
  const auto end_time = record_time(*end->recorded);
  if (!start_time || !end_time) return cudaErrorNotReady;  // recorded, not yet reached: CUDA's answer
  *ms = std::chrono::duration<float, std::milli>(*end_time - *start_time).count();
  return cudaSuccess;
}
