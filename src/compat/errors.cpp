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

#include "cohort/detail/host/launch.hpp"
#include "cohort/detail/host/state.hpp"
#include "runtime_state.hpp"

namespace cohort::compat::detail {

namespace {

struct error_text {
  const char* name;
  const char* text;
};

const std::map<cudaError_t, error_text>& error_table() {
  static const std::map<cudaError_t, error_text> table{
      {cudaSuccess, {"cudaSuccess", "no error"}},
      {cudaErrorInvalidValue, {"cudaErrorInvalidValue", "invalid argument"}},
      {cudaErrorMemoryAllocation, {"cudaErrorMemoryAllocation", "out of memory"}},
      {cudaErrorInitializationError, {"cudaErrorInitializationError", "initialization error"}},
      {cudaErrorInvalidConfiguration, {"cudaErrorInvalidConfiguration", "invalid configuration argument"}},
      {cudaErrorInvalidPitchValue, {"cudaErrorInvalidPitchValue", "invalid pitch argument"}},
      {cudaErrorInvalidSymbol, {"cudaErrorInvalidSymbol", "invalid device symbol"}},
      {cudaErrorInvalidHostPointer, {"cudaErrorInvalidHostPointer", "invalid host pointer"}},
      {cudaErrorInvalidDevicePointer, {"cudaErrorInvalidDevicePointer", "invalid device pointer"}},
      {cudaErrorInvalidMemcpyDirection, {"cudaErrorInvalidMemcpyDirection", "invalid copy direction for memcpy"}},
      {cudaErrorMissingConfiguration, {"cudaErrorMissingConfiguration", "__global__ function call is not configured"}},
      {cudaErrorLaunchMaxDepthExceeded,
       {"cudaErrorLaunchMaxDepthExceeded", "launch would exceed maximum depth of nested launches"}},
      {cudaErrorInvalidDeviceFunction, {"cudaErrorInvalidDeviceFunction", "invalid device function"}},
      {cudaErrorNoDevice, {"cudaErrorNoDevice", "no CUDA-capable device is detected"}},
      {cudaErrorInvalidDevice, {"cudaErrorInvalidDevice", "invalid device ordinal"}},
      {cudaErrorInvalidKernelImage, {"cudaErrorInvalidKernelImage", "device kernel image is invalid"}},
      {cudaErrorNoKernelImageForDevice,
       {"cudaErrorNoKernelImageForDevice", "no kernel image is available for execution on the device"}},
      {cudaErrorUnsupportedLimit, {"cudaErrorUnsupportedLimit", "limit is not supported on this architecture"}},
      {cudaErrorInvalidResourceHandle, {"cudaErrorInvalidResourceHandle", "invalid resource handle"}},
      {cudaErrorIllegalState, {"cudaErrorIllegalState", "the operation cannot be performed in the present state"}},
      {cudaErrorSymbolNotFound, {"cudaErrorSymbolNotFound", "named symbol not found"}},
      {cudaErrorNotReady, {"cudaErrorNotReady", "device not ready"}},
      {cudaErrorIllegalAddress, {"cudaErrorIllegalAddress", "an illegal memory access was encountered"}},
      {cudaErrorLaunchOutOfResources, {"cudaErrorLaunchOutOfResources", "too many resources requested for launch"}},
      {cudaErrorLaunchTimeout, {"cudaErrorLaunchTimeout", "the launch timed out and was terminated"}},
      {cudaErrorContextIsDestroyed, {"cudaErrorContextIsDestroyed", "context is destroyed"}},
      {cudaErrorAssert, {"cudaErrorAssert", "device-side assert triggered"}},
      {cudaErrorHostMemoryAlreadyRegistered,
       {"cudaErrorHostMemoryAlreadyRegistered", "part or all of the requested memory range is already mapped"}},
      {cudaErrorPeerAccessUnsupported,
       {"cudaErrorPeerAccessUnsupported", "peer access is not supported across the given devices"}},
      {cudaErrorPeerAccessAlreadyEnabled,
       {"cudaErrorPeerAccessAlreadyEnabled", "peer access is already enabled"}},
      {cudaErrorPeerAccessNotEnabled, {"cudaErrorPeerAccessNotEnabled", "peer access has not been enabled"}},
      {cudaErrorHostMemoryNotRegistered,
       {"cudaErrorHostMemoryNotRegistered", "pointer does not correspond to a registered memory region"}},
      {cudaErrorHardwareStackError, {"cudaErrorHardwareStackError", "hardware stack error"}},
      {cudaErrorIllegalInstruction, {"cudaErrorIllegalInstruction", "an illegal instruction was encountered"}},
      {cudaErrorMisalignedAddress, {"cudaErrorMisalignedAddress", "misaligned address"}},
      {cudaErrorInvalidPc, {"cudaErrorInvalidPc", "invalid program counter"}},
      {cudaErrorLaunchFailure, {"cudaErrorLaunchFailure", "unspecified launch failure"}},
      {cudaErrorCooperativeLaunchTooLarge,
       {"cudaErrorCooperativeLaunchTooLarge", "too many blocks in cooperative launch"}},
      {cudaErrorNotPermitted, {"cudaErrorNotPermitted", "operation not permitted"}},
      {cudaErrorNotSupported, {"cudaErrorNotSupported", "operation not supported"}},
      {cudaErrorStreamCaptureUnsupported,
       {"cudaErrorStreamCaptureUnsupported", "operation not supported when stream is capturing"}},
      {cudaErrorUnknown, {"cudaErrorUnknown", "unknown error"}},
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
    case cohort::errc::invalid_configuration: return {cudaErrorInvalidConfiguration, false};
    case cohort::errc::cooperative_too_large: return {cudaErrorCooperativeLaunchTooLarge, false};
    case cohort::errc::cooperative_unsupported: return {cudaErrorNotSupported, false};
    case cohort::errc::shared_memory_limit: return {cudaErrorInvalidValue, false};
    case cohort::errc::invalid_argument: return {cudaErrorInvalidValue, false};
    case cohort::errc::out_of_memory: return {cudaErrorMemoryAllocation, false};
    case cohort::errc::runtime: return {cudaErrorUnknown, false};
    case cohort::errc::not_cooperative:
    case cohort::errc::unreachable_barrier:
    case cohort::errc::barrier_mismatch:
    case cohort::errc::deadlock:
    case cohort::errc::collective_mismatch:
    case cohort::errc::non_uniform_argument:
    case cohort::errc::copy_in_flight:
    case cohort::errc::stack_overflow:
    case cohort::errc::kernel_exception: return {cudaErrorLaunchFailure, true};
    case cohort::errc::memory_fault: return {cudaErrorIllegalAddress, true};
    case cohort::errc::assertion_failed: return {cudaErrorAssert, true};
  }
  return {cudaErrorUnknown, false};
}

}  // namespace

void refuse_in_kernel(const char* call) {
  if (cohort::detail::host::current_block == nullptr) return;
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
  if (!m.sticky && dynamic_cast<const cohort::detail::host::kernel_error*>(&e) != nullptr &&
      m.code != cudaErrorMemoryAllocation && m.code != cudaErrorUnknown)
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
