// CUDA's error model: a last error per host thread that cudaGetLastError
// returns and resets, and a process-wide sticky error after a kernel fault
// that every later call returns. cudaGetErrorString appends cohort's message
// for the most recent error of that code, so printed errors say what happened.
#include <atomic>
#include <cstdio>
#include <map>
#include <mutex>
#include <set>
#include <string>

#include "runtime_state.hpp"

namespace cohort::compat::detail {

namespace {

struct error_text {
  const char* name;
  const char* text;
};

const std::map<cudaError_t, error_text>& error_table() {
  static const std::map<cudaError_t, error_text> table{
#define COHORT_CUDA_ERROR_TEXT(name, value, text) {name, {#name, text}},
      COHORT_CUDA_ERRORS(COHORT_CUDA_ERROR_TEXT)
#undef COHORT_CUDA_ERROR_TEXT
  };
  return table;
}

thread_local cudaError_t last_error = cudaSuccess;
std::atomic<cudaError_t> sticky_error{cudaSuccess};

std::mutex messages_mutex;

// Built on first use, as a static initializer may fail a call.
std::map<cudaError_t, std::string>& latest_message() {
  static std::map<cudaError_t, std::string> by_code;
  return by_code;
}
// Strings handed out by cudaGetErrorString live as long as the process, as CUDA's do.
std::set<std::string>& interned() {
  static std::set<std::string> strings;
  return strings;
}

const char* intern(std::string s) {
  std::lock_guard lock(messages_mutex);
  return interned().insert(std::move(s)).first->c_str();
}

// Where a cohort::error's kind lands among CUDA's codes; faults inside a
// kernel are sticky, as they are on the GPU.
struct mapped {
  cudaError_t code;
  bool sticky;
};

mapped map_kind(cohort::errc kind) {
  switch (kind) {
    case cohort::errc::invalid_configuration:
      return {cudaErrorInvalidConfiguration, false};
    case cohort::errc::cooperative_too_large:
      return {cudaErrorCooperativeLaunchTooLarge, false};
    case cohort::errc::cooperative_unsupported:
      return {cudaErrorNotSupported, false};
    case cohort::errc::shared_memory_limit:
      return {cudaErrorInvalidValue, false};
    case cohort::errc::invalid_argument:
      return {cudaErrorInvalidValue, false};
    case cohort::errc::out_of_memory:
      return {cudaErrorMemoryAllocation, false};
    case cohort::errc::runtime:
      return {cudaErrorUnknown, false};
    case cohort::errc::not_cooperative:
    case cohort::errc::unreachable_barrier:
    case cohort::errc::barrier_mismatch:
    case cohort::errc::deadlock:
    case cohort::errc::collective_mismatch:
    case cohort::errc::non_uniform_argument:
    case cohort::errc::copy_in_flight:
    case cohort::errc::stack_overflow:
    case cohort::errc::kernel_exception:
    case cohort::errc::data_race:
      return {cudaErrorLaunchFailure, true};
    case cohort::errc::memory_fault:
      return {cudaErrorIllegalAddress, true};
    case cohort::errc::assertion_failed:
      return {cudaErrorAssert, true};
  }
  return {cudaErrorUnknown, false};
}

}  // namespace

void refuse_in_kernel(const char* call) {
  if (!cohort::host::inside_kernel()) return;
  throw cohort::error(cohort::errc::invalid_argument,
                      std::string(call) +
                          " called in a kernel: the host backend has no device-side runtime API (dynamic "
                          "parallelism); call it from host code");
}

cudaError_t sticky() {
  const cudaError_t e = sticky_error.load(std::memory_order_acquire);
  if (e != cudaSuccess) last_error = e;
  return e;
}

cudaError_t fail(cudaError_t code, const std::string& message, bool is_sticky) {
  {
    std::lock_guard lock(messages_mutex);
    latest_message()[code] = message;
  }
  if (is_sticky) {
    cudaError_t none = cudaSuccess;
    // A GPU prints a failed device-side assert; a kernel fault here says what it was
    // once, so that a program that only checks codes still shows the diagnostic.
    if (sticky_error.compare_exchange_strong(none, code, std::memory_order_acq_rel))
      std::fprintf(stderr, "cohort: kernel fault (%s): %s\n", error_table().at(code).name, message.c_str());
  }
  last_error = code;
  return code;
}

// A usage error raised while the kernel ran (a shuffle's mask, a partition's
// size) stops the kernel partway, as a fault does: a GPU reports that at the
// next synchronization, and the output is incomplete.
cudaError_t fail(const cohort::error& e, const std::string& call) {
  mapped m = map_kind(e.kind());
  if (!m.sticky && cohort::host::is_kernel_fault(e) && m.code != cudaErrorMemoryAllocation &&
      m.code != cudaErrorUnknown)
    m = {cudaErrorLaunchFailure, true};
  return fail(m.code, call.empty() ? std::string(e.what()) : call + ": " + e.what(), m.sticky);
}

void clear_errors() {
  sticky_error.store(cudaSuccess, std::memory_order_release);
  last_error = cudaSuccess;
}

}  // namespace cohort::compat::detail

namespace cohort::compat {

const char* error_detail(cudaError_t error) {
  std::string message;
  {
    std::lock_guard lock(detail::messages_mutex);
    const auto it = detail::latest_message().find(error);
    if (it != detail::latest_message().end()) message = it->second;
  }
  return detail::intern(std::move(message));
}

}  // namespace cohort::compat

using namespace cohort::compat::detail;

// A sticky error is the last error of every call that meets it, and these
// two read and reset the last error only, as CUDA 13 does (H200, driver 580:
// after a fault, a second cudaGetLastError and a cudaPeekAtLastError return
// cudaSuccess until the next call meets the fault again).
cudaError_t cudaGetLastError() {
  const cudaError_t e = last_error;
  last_error = cudaSuccess;
  return e;
}

cudaError_t cudaPeekAtLastError() { return last_error; }

const char* cudaGetErrorName(cudaError_t error) {
  const auto it = error_table().find(error);
  return it == error_table().end() ? "unrecognized error code" : it->second.name;
}

const char* cudaGetErrorString(cudaError_t error) {
  const auto it = error_table().find(error);
  if (it == error_table().end()) return "unrecognized error code";
  const std::string detail = cohort::compat::error_detail(error);
  if (detail.empty()) return it->second.text;
  return intern(std::string(it->second.text) + " (cohort: " + detail + ")");
}
