// CUDA's stream semantics on the host backend, over stream_queue: which
// queue a cudaStream_t names (stream 0 and cudaStreamLegacy: the current
// device's legacy default stream; cudaStreamPerThread: the calling thread's
// own; a created stream: its own, on the device current at its creation),
// the implicit synchronization of the legacy stream with the device's
// blocking streams, and the waits of the synchronizing calls.
//
// The fast path: work for the legacy default stream runs on the calling
// thread before the call returns, as it always did, while nothing could tell
// the difference: one device (COHORT_DEVICE_COUNT=1), no non-blocking
// stream, and no work pending in any stream. Anything else is queued.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>

#include <cohort/cohort.hpp>

#include "runtime_state.hpp"
#include "stream_queue.hpp"

namespace cohort::compat::detail {

// cudaStreamCreateWithFlags: a queue on the current device (no thread until its first work).
std::shared_ptr<stream_queue> create_stream_queue(unsigned flags);
// cudaStreamDestroy: the queue finishes the work it holds, then its thread ends.
void retire_stream_queue(const std::shared_ptr<stream_queue>& queue);
// A created stream's queue (streams.cpp, which knows the handle's record).
std::shared_ptr<stream_queue> queue_of(cudaStream_t stream);

// Whether work for `stream` runs on the calling thread now (the fast path above).
bool runs_inline(cudaStream_t stream);
// Queues `task` on `stream` after its work and what the legacy stream's
// implicit synchronization adds. `call` names the API call in errors.
cudaError_t enqueue(const char* call, cudaStream_t stream, task_kind kind, stream_task task);

// Runs `work(status)` now when runs_inline(stream), else queues it. Work
// reports an error by throwing cohort::error: run now, its code is returned;
// queued, it becomes the sticky error (a kernel fault) or is reported by the
// next synchronization that covers the stream.
template <class F>
cudaError_t issue(const char* call, cudaStream_t stream, task_kind kind, F work) {
  if (runs_inline(stream)) {
    try {
      work(cudaSuccess);
    } catch (const cohort::error& e) {
      return fail(e);
    }
    return cudaSuccess;
  }
  return enqueue(call, stream, kind, stream_task(std::move(work)));
}

// cudaStreamSynchronize: waits for everything issued to `stream` before the
// call (for the legacy stream, also the blocking streams' earlier work);
// returns the first error that work left to report, else cudaSuccess.
cudaError_t synchronize_stream(cudaStream_t stream);
// cudaStreamQuery: whether that work is done.
bool stream_done(cudaStream_t stream);
// cudaDeviceSynchronize: every stream of `device`.
cudaError_t synchronize_device(int device);
// cudaDeviceReset: waits for every stream of `device` and drops the errors they left.
void drain_device(int device);
// cudaFree, cudaFreeHost: waits for every stream's work, which may still use the memory.
void wait_for_all_work();

// Host functions of different streams run one at a time (CUDA allows it), so
// that callbacks written for a GPU's one callback thread do not race.
std::mutex& host_function_mutex();
template <class F>
void run_host_function(F call) {
  if (!on_stream_thread()) return call();
  const std::lock_guard lock(host_function_mutex());
  call();
}

// An event's record: done once the work issued before it (as a
// synchronization of its stream would wait for) is done.
struct event_record {
  std::optional<stream_position> position;     // none: done when recorded
  std::chrono::steady_clock::time_point time;  // when it was done
};
// cudaEventRecord.
std::shared_ptr<event_record> record_on(cudaStream_t stream);
bool record_done(const event_record& record);
// The time the record was done, if it is.
std::optional<std::chrono::steady_clock::time_point> record_time(const event_record& record);
// cudaEventSynchronize.
void wait_for_record(const event_record& record);
// cudaStreamWaitEvent: the stream's later work waits for the record.
cudaError_t wait_on_record(const char* call, cudaStream_t stream, const event_record& record);

}  // namespace cohort::compat::detail
