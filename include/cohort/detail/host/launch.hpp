// The launch primitives of the host backend. raw_launch runs every block on
// the worker pool (cooperative: every block on its own OS thread, all
// resident at once, at most COHORT_WORKERS running) and returns when the grid has finished, throwing the
// first diagnostic raised inside the kernel (src/host_runtime/launch/launch.cpp). Occupancy
// is computed from the virtual device (detail/occupancy.hpp); the kernel
// attributes are the dynamic shared memory a kernel opted in to.
#pragma once

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include "cohort/detail/host/language/kernel_call.hpp"
#include "cohort/detail/host/runtime/block_loop.hpp"
#include "cohort/detail/host/runtime/thread_loop.hpp"
#include "cohort/detail/kernel_arguments.hpp"
#include "cohort/errors.hpp"
#include "cohort/launch/device.hpp"
#include "cohort/launch/launch_config.hpp"

namespace cohort::detail::host {

// An error raised while the kernel ran (by kernel code, or by the runtime on
// its behalf: a misused collective, a failed thread), as opposed to one found
// before any thread started. Caught as cohort::error like any other; the CUDA
// runtime on the host (cohort::cudart) reports it as a kernel fault, sticky,
// as a GPU would.
class kernel_error : public error {
 public:
  explicit kernel_error(const error& e) : error(e) {}
};

struct kernel_entry {
  void (*run_threads)(const void* payload);
  const void* payload;
  const void* kernel;  // identifies the kernel: its name in messages, its attributes
  // The loops engine's runner (block_loop.hpp), where the kernel's parameters
  // allow one; whether it runs is the launch's choice (src/host_runtime/launch/loops_engine.cpp).
  void (*run_loops)(const void* payload) = nullptr;
};

// How diagnostics name the call that makes a launch cooperative, for the
// launches this thread makes while one lives: cohort's launch_cooperative by
// default; the CUDA runtime on the host (src/compat) names
// cudaLaunchCooperativeKernel, the call its programs know.
class cooperative_launch_named {
 public:
  explicit cooperative_launch_named(const char* call);
  ~cooperative_launch_named();
  cooperative_launch_named(const cooperative_launch_named&) = delete;
  cooperative_launch_named& operator=(const cooperative_launch_named&) = delete;

 private:
  const char* previous_;
};

// Runs a launch whose configuration has been checked (detail/launch_checks.hpp).
void launch_kernel(const kernel_entry& entry, const launch_config& cfg, bool cooperative);
int active_blocks_per_sm(const void* kernel, int block_threads, std::size_t dynamic_shared_bytes);
// The dynamic shared memory the kernel may use: the device's default, or what it opted in to.
std::size_t kernel_shared_limit(const void* kernel);
void set_kernel_shared_limit(const void* kernel, std::size_t bytes);
// The checks of a launch with clusters: the shape, and that its clusters fit at once.
void check_cluster_launch(const void* kernel, const launch_config& cfg, int device, const device_properties& p,
                          bool cooperative);
// Host kernels' static __shared__ variables take nothing from the dynamic budget.
inline std::size_t kernel_static_shared(const void*) noexcept { return 0; }

template <class... P>
struct kernel_payload {
  void (*kernel)(P...);
  std::tuple<std::decay_t<P>...> args;
};

template <class... P>
void run_dynamic(const void* payload) {
  const auto& p = *static_cast<const kernel_payload<P...>*>(payload);
  run_threads([&p] { call_kernel(p.kernel, p.args); });
}

// Calls the kernel's block function, which has the kernel's type, once per
// block. Only for kernels whose parameters are all passed as they are: a
// parameter passed by address would be one copy for all the block's threads.
template <class... P>
void run_loops(const void* payload) {
  const auto& p = *static_cast<const kernel_payload<P...>*>(payload);
  auto* const block =
      reinterpret_cast<void (*)(P...)>(const_cast<void*>(loops_block_function(kernel_address(p.kernel))));
  run_whole_blocks([&p, block] { std::apply(block, p.args); });
}

template <auto Kernel, class... P>
void run_static(const void* payload) {
  const auto& p = *static_cast<const kernel_payload<P...>*>(payload);
  if constexpr (any_passed_by_address<P...>)
    run_threads([&p] { call_kernel(p.kernel, p.args); });  // copied bitwise per thread, not by their constructors
  else                                                     // the arguments copied into the body: see run_threads
    run_threads([args = p.args] { std::apply([](const auto&... a) { Kernel(a...); }, args); });
}

// The bytes of a kernel's parameters as CUDA lays them out (each at its
// alignment, one after another), and CUDA's limit on them (since CUDA 12.1;
// nvcc refuses a kernel over it at compile time).
template <class... P>
constexpr std::size_t parameter_bytes() {
  std::size_t bytes = 0;
  ((bytes = (bytes + alignof(std::decay_t<P>) - 1) / alignof(std::decay_t<P>) * alignof(std::decay_t<P>) +
            sizeof(std::decay_t<P>)),
   ...);
  return bytes;
}
inline constexpr std::size_t max_parameter_bytes = 32764;
// Refuses a launch whose parameters take more than max_parameter_bytes.
[[noreturn]] void parameters_too_large(const void* kernel, std::size_t bytes);

template <class... P, class... A>
void launch_with(void (*run)(const void*), void (*kernel)(P...), const launch_config& cfg, bool cooperative,
                 A&&... args) {
  if constexpr (parameter_bytes<P...>() > max_parameter_bytes)
    parameters_too_large(kernel_address(kernel), parameter_bytes<P...>());
  // Each argument converted once, straight into the launch's copy (arguments_fit has checked that it converts).
  const kernel_payload<P...> payload{kernel, {std::forward<A>(args)...}};
  void (*const run_loops_for)(const void*) = any_passed_by_address<P...> ? nullptr : &run_loops<P...>;
  launch_kernel(kernel_entry{run, &payload, kernel_address(kernel), run_loops_for}, cfg, cooperative);
}

template <class F>
struct kernel_traits;
template <class... P>
struct kernel_traits<void (*)(P...)> {
  template <auto Kernel>
  static constexpr auto runner = &run_static<Kernel, P...>;
};

template <class... P, class... A>
void raw_launch(void (*kernel)(P...), const launch_config& cfg, bool cooperative, A&&... args) {
  launch_with(&run_dynamic<P...>, kernel, cfg, cooperative, std::forward<A>(args)...);
}

template <auto Kernel, class... A>
void raw_launch_static(const launch_config& cfg, bool cooperative, A&&... args) {
  using traits = kernel_traits<decltype(+Kernel)>;
  launch_with(traits::template runner<Kernel>, +Kernel, cfg, cooperative, std::forward<A>(args)...);
}

}  // namespace cohort::detail::host
