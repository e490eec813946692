#include "stream_order.hpp"

#include <algorithm>
#include <atomic>
#include <map>
#include <system_error>
#include <utility>
#include <vector>

namespace cohort::compat::detail {

namespace {

// Guarded by order_mutex. Never destroyed: the exit drain joins the streams'
// threads before static destructors run, and a queue outlives its thread.
struct registry {
  std::vector<std::shared_ptr<stream_queue>> queues;    // every queue, until its thread has ended
  std::map<int, std::shared_ptr<stream_queue>> legacy;  // by device
};

registry& streams() {
  static registry* const r = new registry;
  return *r;
}

std::atomic<int> non_blocking_streams{0};
std::atomic<bool> exiting{false};

// Kernels of two devices may wait for each other: with several devices even
// the default stream's work is queued, so that a launch never waits for its kernel.
bool several_devices() {
  static const bool several = cohort::device_count() > 1;
  return several;
}

bool is_legacy(cudaStream_t stream) { return stream == nullptr || stream == cudaStreamLegacy; }

// The functions below until the end of this namespace run with order_mutex held.

std::shared_ptr<stream_queue> add_queue(int device, stream_kind kind) {
  streams().queues.push_back(std::make_shared<stream_queue>(device, kind));
  return streams().queues.back();
}

std::shared_ptr<stream_queue> legacy_queue(int device) {
  std::shared_ptr<stream_queue>& q = streams().legacy[device];
  if (q == nullptr) q = add_queue(device, stream_kind::legacy);
  return q;
}

// cudaStreamPerThread: one queue per host thread and device, retired when the thread ends.
struct per_thread_queues {
  std::map<int, std::shared_ptr<stream_queue>> by_device;
  ~per_thread_queues() {
    const std::lock_guard lock(order_mutex());
    for (auto& [device, q] : by_device) q->retire();
  }
};
thread_local per_thread_queues this_thread_queues;

std::shared_ptr<stream_queue> per_thread_queue(int device) {
  std::shared_ptr<stream_queue>& q = this_thread_queues.by_device[device];
  if (q == nullptr) q = add_queue(device, stream_kind::per_thread);
  return q;
}

std::shared_ptr<stream_queue> resolve(cudaStream_t stream) {
  if (is_legacy(stream)) return legacy_queue(cohort::get_device());
  if (stream == cudaStreamPerThread) return per_thread_queue(cohort::get_device());
  return queue_of(stream);
}

// The queues whose earlier work CUDA's implicit synchronization puts before
// work on `q`: for the legacy stream, the device's blocking streams; for a
// blocking stream, the device's legacy stream.
std::vector<std::shared_ptr<stream_queue>> synchronized_with(const stream_queue& q) {
  std::vector<std::shared_ptr<stream_queue>> related;
  switch (q.kind()) {
    case stream_kind::legacy:
      for (const auto& other : streams().queues)
        if (other->device() == q.device() &&
            (other->kind() == stream_kind::blocking || other->kind() == stream_kind::per_thread))
          related.push_back(other);
      break;
    case stream_kind::per_thread:
    case stream_kind::blocking:
      if (const auto it = streams().legacy.find(q.device()); it != streams().legacy.end())
        related.push_back(it->second);
      break;
    case stream_kind::non_blocking:
      break;
  }
  return related;
}

// What new work on `q` waits for besides q's own earlier work.
std::vector<stream_position> implicit_waits(const stream_queue& q) {
  std::vector<stream_position> waits;
  for (const auto& other : synchronized_with(q))
    if (other->busy()) waits.push_back(other->tail());
  return waits;
}

// What a synchronization of `q` waits for: q's work and the work before it.
// Idle queues too, whose errors the synchronization reports.
std::vector<stream_position> covering(const std::shared_ptr<stream_queue>& q) {
  std::vector<stream_position> positions{q->tail()};
  for (const auto& other : synchronized_with(*q)) positions.push_back(other->tail());
  return positions;
}

std::vector<stream_position> device_work(int device) {
  std::vector<stream_position> positions;
  for (const auto& q : streams().queues)
    if (q->device() == device) positions.push_back(q->tail());
  return positions;
}

bool all_reached(const std::vector<stream_position>& positions) {
  return std::all_of(positions.begin(), positions.end(), [](const stream_position& p) { return p.reached(); });
}

// Waits for `positions`, then takes the errors their queues hold: the first is returned.
std::optional<deferred_error> wait_then_take_errors(std::unique_lock<std::mutex>& lock,
                                                    const std::vector<stream_position>& positions) {
  if (!all_reached(positions)) wait_for_progress(lock, [&positions] { return all_reached(positions); });
  std::optional<deferred_error> first;
  for (const stream_position& p : positions)
    if (std::optional<deferred_error> e = p.queue->take_error(); e && !first) first = std::move(e);
  return first;
}

cudaError_t wait_and_report(std::unique_lock<std::mutex>& lock, const std::vector<stream_position>& positions) {
  const std::optional<deferred_error> error = wait_then_take_errors(lock, positions);
  lock.unlock();
  return error ? fail(error->code, error->message) : cudaSuccess;
}

// Drops the queues whose threads have ended; they are joined (at once) as they are destroyed, after the lock.
std::vector<std::shared_ptr<stream_queue>> take_ended() {
  std::vector<std::shared_ptr<stream_queue>>& all = streams().queues;
  std::vector<std::shared_ptr<stream_queue>> ended, running;  // each in the order it was
  for (std::shared_ptr<stream_queue>& q : all) (q->ended() ? ended : running).push_back(std::move(q));
  all = std::move(running);
  return ended;
}

// The process is exiting: the streams finish their work and their threads
// end while everything their work uses still exists. Work issued afterwards
// (from a static destructor) runs on the calling thread.
void drain_at_exit() {
  std::vector<std::shared_ptr<stream_queue>> queues;
  {
    const std::lock_guard lock(order_mutex());
    exiting.store(true, std::memory_order_release);
    for (const auto& q : streams().queues) q->retire();
    queues = streams().queues;
  }
  for (const auto& q : queues) q->join();
}

// A process's exit destroys the exiting thread's thread_local objects before
// any static object (glibc runs them first), so this one, made on the main
// thread before main, drains the streams at the exit of a program that
// leaves work pending, before the runtime it runs on is torn down.
// The initializer below uses the object (a call), which constructs it and
// registers its destructor: clang takes a thread_local's address without
// either, and then drops the unused variable that took it.
struct exit_drain {
  ~exit_drain() { drain_at_exit(); }
  bool armed() const { return true; }
};
thread_local exit_drain main_thread_exit_drain;
[[maybe_unused]] const bool exit_drain_armed = main_thread_exit_drain.armed();

std::mutex host_functions;

// CUDA does not permit runtime calls in a host function (cudaErrorNotPermitted);
// a synchronization there would wait for the very work making it.
cudaError_t waits_for_itself() {
  return fail(cudaErrorNotPermitted,
              "a stream or device synchronization from work running on a stream (a host function or a graph's "
              "node) would wait for that work itself: CUDA does not permit runtime calls there");
}

}  // namespace

std::mutex& host_function_mutex() { return host_functions; }

std::shared_ptr<stream_queue> create_stream_queue(unsigned flags) {
  std::vector<std::shared_ptr<stream_queue>> ended;
  const std::lock_guard lock(order_mutex());
  ended = take_ended();
  const bool non_blocking = (flags & cudaStreamNonBlocking) != 0;
  if (non_blocking) non_blocking_streams.fetch_add(1, std::memory_order_acq_rel);
  return add_queue(cohort::get_device(), non_blocking ? stream_kind::non_blocking : stream_kind::blocking);
}

void retire_stream_queue(const std::shared_ptr<stream_queue>& queue) {
  bool idle = false;
  {
    const std::lock_guard lock(order_mutex());
    queue->retire();
    if (queue->kind() == stream_kind::non_blocking) non_blocking_streams.fetch_sub(1, std::memory_order_acq_rel);
    idle = !queue->busy();
  }
  if (idle) queue->join();  // its thread leaves at once; a busy one is joined once it has
  std::vector<std::shared_ptr<stream_queue>> ended;
  const std::lock_guard lock(order_mutex());
  ended = take_ended();
}

bool runs_inline(cudaStream_t stream) {
  // At exit; or from a stream's own thread, where work comes from a task of the
  // stream (a graph's nodes), whose place in the order it already has.
  if (exiting.load(std::memory_order_acquire) || on_stream_thread()) return true;
  return is_legacy(stream) && !several_devices() && non_blocking_streams.load(std::memory_order_acquire) == 0 &&
         !any_work_pending();
}

cudaError_t enqueue(const char* call, cudaStream_t stream, task_kind kind, stream_task task) {
  std::unique_lock lock(order_mutex());
  if (exiting.load(std::memory_order_acquire)) {
    lock.unlock();
    try {
      task(sticky());
    } catch (const cohort::error& e) {
      return fail(e);
    }
    return cudaSuccess;
  }
  const std::shared_ptr<stream_queue> queue = resolve(stream);
  try {
    queue->push(kind, std::move(task), implicit_waits(*queue));
  } catch (const std::system_error& e) {
    lock.unlock();
    return fail(cudaErrorMemoryAllocation, std::string(call) + ": cannot start the stream's thread (" + e.what() +
                                               "); the system's limit on threads is reached");
  }
  return cudaSuccess;
}

cudaError_t synchronize_stream(cudaStream_t stream) {
  if (!any_work_pending() && !any_deferred_error()) return cudaSuccess;
  if (on_stream_thread()) return waits_for_itself();
  std::unique_lock lock(order_mutex());
  return wait_and_report(lock, covering(resolve(stream)));
}

bool stream_done(cudaStream_t stream) {
  if (!any_work_pending()) return true;
  const std::lock_guard lock(order_mutex());
  const std::shared_ptr<stream_queue> queue = resolve(stream);
  return !queue->busy() && implicit_waits(*queue).empty();
}

cudaError_t synchronize_device(int device) {
  if (!any_work_pending() && !any_deferred_error()) return cudaSuccess;
  if (on_stream_thread()) return waits_for_itself();
  std::unique_lock lock(order_mutex());
  return wait_and_report(lock, device_work(device));
}

void drain_device(int device) {
  if (!any_work_pending() && !any_deferred_error()) return;
  std::unique_lock lock(order_mutex());
  wait_then_take_errors(lock, device_work(device));
}

void wait_for_all_work() {
  if (!any_work_pending() || on_stream_thread()) return;  // a host function waits for no stream
  std::unique_lock lock(order_mutex());
  std::vector<stream_position> positions;
  for (const auto& q : streams().queues) positions.push_back(q->tail());
  wait_for_progress(lock, [&positions] { return all_reached(positions); });
}

std::shared_ptr<event_record> record_on(cudaStream_t stream) {
  auto record = std::make_shared<event_record>();
  record->time = std::chrono::steady_clock::now();
  if (runs_inline(stream)) return record;
  const std::lock_guard lock(order_mutex());
  const std::shared_ptr<stream_queue> queue = resolve(stream);
  std::vector<stream_position> waits = implicit_waits(*queue);
  if (!queue->busy() && waits.empty()) return record;  // nothing to wait for: done now
  try {
    record->position = queue->push(
        task_kind::always, stream_task([record](cudaError_t) { record->time = std::chrono::steady_clock::now(); }),
        std::move(waits));
  } catch (const std::system_error&) {
    record->time = std::chrono::steady_clock::now();  // no thread for the stream: the record is the moment of the call
  }
  return record;
}

bool record_done(const event_record& record) {
  if (!record.position) return true;
  const std::lock_guard lock(order_mutex());
  return record.position->reached();
}

std::optional<std::chrono::steady_clock::time_point> record_time(const event_record& record) {
  const std::lock_guard lock(order_mutex());
  if (record.position && !record.position->reached()) return std::nullopt;
  return record.time;
}

void wait_for_record(const event_record& record) {
  if (!record.position) return;
  std::unique_lock lock(order_mutex());
  const stream_position& position = *record.position;
  if (!position.reached()) wait_for_progress(lock, [&position] { return position.reached(); });
}

cudaError_t wait_on_record(const char* call, cudaStream_t stream, const event_record& record) {
  if (!record.position) return cudaSuccess;
  std::unique_lock lock(order_mutex());
  if (record.position->reached() || exiting.load(std::memory_order_acquire)) return cudaSuccess;
  const std::shared_ptr<stream_queue> queue = resolve(stream);
  if (queue == record.position->queue) return cudaSuccess;  // the stream's own order has it already
  std::vector<stream_position> waits = implicit_waits(*queue);
  waits.push_back(*record.position);
  try {
    queue->push(task_kind::always, stream_task([](cudaError_t) {}), std::move(waits));
  } catch (const std::system_error& e) {
    lock.unlock();
    return fail(cudaErrorMemoryAllocation, std::string(call) + ": cannot start the stream's thread (" + e.what() + ")");
  }
  return cudaSuccess;
}

}  // namespace cohort::compat::detail
