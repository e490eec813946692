// One CUDA stream's work on the host backend, in the stream's order: each
// operation runs on a thread of the stream's own, after the operation before
// it and after the other streams' work it must follow (the legacy default
// stream's implicit synchronization, cudaStreamWaitEvent), so that kernels of
// different streams and devices run at the same time, as on a GPU.
// stream_order.hpp says which queue a cudaStream_t is and what it waits for.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "cuda_runtime.h"

namespace cohort::compat::detail {

// Every queue's counters are guarded by this one lock, so that an
// operation's dependencies on other streams are read and met consistently.
std::mutex& order_mutex();
// Waits, `lock` holding order_mutex, until `done()`; re-tested whenever an operation completes.
void wait_for_progress(std::unique_lock<std::mutex>& lock, const std::function<bool()>& done);
// Whether any queue holds work not yet completed (read without the lock: the fast path's test).
bool any_work_pending();
// Whether some queue holds an error that no synchronization has reported yet.
bool any_deferred_error();
// Whether the caller is a stream's own thread (running a queued operation).
bool on_stream_thread();

// How a stream takes part in CUDA's implicit synchronization.
enum class stream_kind {
  legacy,        // stream 0: waits for, and is waited for by, the device's blocking streams
  per_thread,    // cudaStreamPerThread: a blocking stream of one host thread
  blocking,      // cudaStreamCreate
  non_blocking,  // cudaStreamNonBlocking: never synchronizes with the legacy stream
};

// What happens to an operation once a kernel has faulted (the sticky error):
enum class task_kind {
  work,    // a kernel, copy, fill, free, host function or callback: skipped, as a faulted GPU context runs nothing more
  always,  // an event's record, a wait for an event, a stream-ordered free: so that no wait hangs, nothing leaks
};

// An operation's body, called with the sticky error (cudaSuccess unless a
// kernel faulted). Move-only: a deferred launch owns its kernel's arguments.
class stream_task {
 public:
  stream_task() = default;
  template <class F>
  explicit stream_task(F f) : body_(std::make_unique<holder<F>>(std::move(f))) {}
  void operator()(cudaError_t status) { body_->run(status); }

 private:
  struct body {
    virtual ~body() = default;
    virtual void run(cudaError_t status) = 0;
  };
  template <class F>
  struct holder final : body {
    explicit holder(F f) : f(std::move(f)) {}
    void run(cudaError_t status) override { f(status); }
    F f;
  };
  std::unique_ptr<body> body_;
};

class stream_queue;

// A stream's work up to some moment: reached once operation `sequence` has completed.
struct stream_position {
  std::shared_ptr<stream_queue> queue;
  std::uint64_t sequence = 0;
  bool reached() const;  // order_mutex held
};

// An error an operation met that is not sticky (CUDA's launch-time refusals
// are reported by the launch itself): reported by the next synchronization
// that covers the stream.
struct deferred_error {
  cudaError_t code = cudaSuccess;
  std::string message;
};

class stream_queue : public std::enable_shared_from_this<stream_queue> {
 public:
  stream_queue(int device, stream_kind kind) : device_(device), kind_(kind) {}
  ~stream_queue();
  stream_queue(const stream_queue&) = delete;
  stream_queue& operator=(const stream_queue&) = delete;

  int device() const { return device_; }
  stream_kind kind() const { return kind_; }

  // The rest with order_mutex held (join: without it).
  // Appends an operation to run after every earlier one and after `waits`;
  // starts the stream's thread on its first operation. Throws
  // std::system_error when no thread can be started.
  stream_position push(task_kind kind, stream_task task, std::vector<stream_position> waits);
  // Everything pushed so far.
  stream_position tail() { return {shared_from_this(), submitted_}; }
  bool busy() const { return completed_ < submitted_; }
  bool reached(std::uint64_t sequence) const { return completed_ >= sequence; }
  // The stream's handle is gone: its thread ends once its work is done.
  void retire();
  bool retired() const { return retiring_; }
  // Retired, and its thread (if it had one) has left its loop: join() won't wait.
  bool ended() const { return retiring_ && (!thread_.joinable() || thread_left_); }
  void join();
  std::optional<deferred_error> take_error();

 private:
  struct operation {
    task_kind kind;
    stream_task task;
    std::vector<stream_position> waits;
  };

  void run();
  std::optional<deferred_error> execute(task_kind kind, stream_task& task);

  const int device_;
  const stream_kind kind_;
  std::deque<operation> operations_;
  std::uint64_t submitted_ = 0;
  std::uint64_t completed_ = 0;
  std::condition_variable work_arrived_;
  bool retiring_ = false;
  bool thread_left_ = false;
  std::optional<deferred_error> error_;
  std::thread thread_;
};

}  // namespace cohort::compat::detail
