#include "stream_queue.hpp"

#include <atomic>
#include <exception>

#include <cohort/cohort.hpp>

#include "runtime_state.hpp"

namespace cohort::compat::detail {

namespace {

struct progress_state {
  std::mutex mutex;                  // order_mutex
  std::condition_variable advanced;  // an operation completed
  int waiters = 0;                   // notified only when someone waits: a completion costs no system call otherwise
};

// Never destroyed: a stream's thread may still finish an operation while the
// process exits (the exit drain joins them before static destructors run).
progress_state& progress() {
  static progress_state* const state = new progress_state;
  return *state;
}

std::atomic<std::size_t> pending_operations{0};
std::atomic<std::size_t> deferred_errors{0};
thread_local bool is_stream_thread = false;

}  // namespace

std::mutex& order_mutex() { return progress().mutex; }

void wait_for_progress(std::unique_lock<std::mutex>& lock, const std::function<bool()>& done) {
  ++progress().waiters;
  progress().advanced.wait(lock, done);
  --progress().waiters;
}

bool any_work_pending() { return pending_operations.load(std::memory_order_acquire) != 0; }

bool any_deferred_error() { return deferred_errors.load(std::memory_order_acquire) != 0; }

bool on_stream_thread() { return is_stream_thread; }

bool stream_position::reached() const { return queue == nullptr || queue->reached(sequence); }

// Only the last owner destroys a queue, after it has ended (the stream
// registry keeps every queue until then), so the join does not wait; the
// lock is not taken, as a position may be dropped with it held.
stream_queue::~stream_queue() {
  if (!thread_.joinable()) return;
  if (thread_.get_id() == std::this_thread::get_id())
    thread_.detach();
  else
    thread_.join();
}

stream_position stream_queue::push(task_kind kind, stream_task task, std::vector<stream_position> waits) {
  if (!thread_.joinable()) thread_ = std::thread([this] { run(); });
  operations_.push_back({kind, std::move(task), std::move(waits)});
  ++submitted_;
  pending_operations.fetch_add(1, std::memory_order_acq_rel);
  work_arrived_.notify_one();
  return {shared_from_this(), submitted_};
}

void stream_queue::retire() {
  retiring_ = true;
  work_arrived_.notify_one();
}

void stream_queue::join() {
  if (thread_.joinable() && thread_.get_id() != std::this_thread::get_id()) thread_.join();
}

std::optional<deferred_error> stream_queue::take_error() {
  if (error_) deferred_errors.fetch_sub(1, std::memory_order_acq_rel);
  return std::exchange(error_, std::nullopt);
}

void stream_queue::run() {
  is_stream_thread = true;
  cohort::set_device(device_);  // the kernels and copies of a stream run on its device
  std::unique_lock lock(order_mutex());
  for (;;) {
    work_arrived_.wait(lock, [this] { return !operations_.empty() || retiring_; });
    if (operations_.empty()) break;  // retired, and its work done
    operation& next = operations_.front();
    const auto ready = [&next] {
      for (const stream_position& w : next.waits)
        if (!w.reached()) return false;
      return true;
    };
    if (!ready()) wait_for_progress(lock, ready);
    next.waits.clear();
    const task_kind kind = next.kind;
    stream_task task = std::move(next.task);
    lock.unlock();
    std::optional<deferred_error> error = execute(kind, task);
    task = {};  // a launch's arguments are destroyed outside the lock (their destructors are the program's)
    lock.lock();
    if (error && !error_) {
      error_ = std::move(error);
      deferred_errors.fetch_add(1, std::memory_order_acq_rel);
    }
    operations_.pop_front();
    ++completed_;
    pending_operations.fetch_sub(1, std::memory_order_acq_rel);
    if (progress().waiters != 0) progress().advanced.notify_all();
  }
  thread_left_ = true;
}

// Errors are recorded as the runtime records any: a kernel fault becomes the
// sticky error at once (every later call returns it, as on a GPU); the rest
// wait for the next synchronization that covers this stream.
std::optional<deferred_error> stream_queue::execute(task_kind kind, stream_task& task) {
  const cudaError_t status = sticky();
  if (status != cudaSuccess && kind == task_kind::work) return std::nullopt;
  try {
    task(status);
  } catch (const cohort::error& e) {
    const cudaError_t code = fail(e);
    if (code != sticky()) return deferred_error{code, e.what()};
  } catch (const std::exception& e) {
    fail(cudaErrorLaunchFailure, e.what(), true);
  }
  return std::nullopt;
}

}  // namespace cohort::compat::detail
