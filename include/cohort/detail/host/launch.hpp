// The launch API on the host backend: a launch runs every block on the
// worker pool (cooperative: every block on its own OS thread, all resident
// at once) and returns when the grid has finished, throwing cohort::error
// for a bad configuration or for a diagnostic raised inside the kernel.
#pragma once

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include "cohort/launch/device.hpp"
#include "cohort/errors.hpp"
#include "cohort/detail/host/thread_loop.hpp"
#include "cohort/launch/launch_config.hpp"
#include "cohort/launch/stream.hpp"

namespace cohort::detail::host {

struct kernel_entry {
  void (*run_threads)(const void* payload);
  const void* payload;
  const void* kernel;  // identifies the kernel: its name in messages, its attributes
};

void launch_kernel(const kernel_entry& entry, const launch_config& cfg, bool cooperative);
int max_active_blocks_per_sm(const void* kernel, long long block_threads, std::size_t dynamic_shared_bytes);
void set_max_dynamic_shared(const void* kernel, std::size_t bytes);

template <class... P>
const void* kernel_id(void (*kernel)(P...)) {
  return reinterpret_cast<const void*>(kernel);
}

template <class... P>
struct kernel_payload {
  void (*kernel)(P...);
  std::tuple<std::decay_t<P>...> args;
};

template <class... P>
void run_dynamic(const void* payload) {
  const auto& p = *static_cast<const kernel_payload<P...>*>(payload);
  run_threads([&p] { std::apply(p.kernel, p.args); });
}

template <auto Kernel, class... P>
void run_static(const void* payload) {
  const auto& p = *static_cast<const kernel_payload<P...>*>(payload);
  run_threads([&p] { std::apply([](const auto&... a) { Kernel(a...); }, p.args); });
}

template <class... P, class... A>
void launch_with(void (*run)(const void*), void (*kernel)(P...), const launch_config& cfg, bool cooperative,
                 A&&... args) {
  static_assert(sizeof...(P) == sizeof...(A), "the kernel takes a different number of arguments");
  const kernel_payload<P...> payload{kernel, {static_cast<std::decay_t<P>>(std::forward<A>(args))...}};
  launch_kernel(kernel_entry{run, &payload, kernel_id(kernel)}, cfg, cooperative);
}

template <class F>
struct kernel_traits;
template <class... P>
struct kernel_traits<void (*)(P...)> {
  template <auto Kernel>
  static constexpr auto runner = &run_static<Kernel, P...>;
};

}  // namespace cohort::detail::host

namespace cohort {

template <class... P, class... A>
void launch(void (*kernel)(P...), const launch_config& cfg, A&&... args) {
  detail::host::launch_with(&detail::host::run_dynamic<P...>, kernel, cfg, false, std::forward<A>(args)...);
}

template <class... P, class... A>
void launch_cooperative(void (*kernel)(P...), const launch_config& cfg, A&&... args) {
  detail::host::launch_with(&detail::host::run_dynamic<P...>, kernel, cfg, true, std::forward<A>(args)...);
}

template <auto Kernel, class... A>
void launch(const launch_config& cfg, A&&... args) {
  using traits = detail::host::kernel_traits<decltype(+Kernel)>;
  detail::host::launch_with(traits::template runner<Kernel>, +Kernel, cfg, false, std::forward<A>(args)...);
}

template <auto Kernel, class... A>
void launch_cooperative(const launch_config& cfg, A&&... args) {
  using traits = detail::host::kernel_traits<decltype(+Kernel)>;
  detail::host::launch_with(traits::template runner<Kernel>, +Kernel, cfg, true, std::forward<A>(args)...);
}

template <class... P>
int max_active_blocks_per_sm(void (*kernel)(P...), int block_threads, std::size_t dynamic_shared_bytes = 0) {
  return detail::host::max_active_blocks_per_sm(detail::host::kernel_id(kernel), block_threads, dynamic_shared_bytes);
}

int multiprocessor_count_of_current_device();

template <class... P>
int max_cooperative_grid(void (*kernel)(P...), int block_threads, std::size_t dynamic_shared_bytes = 0) {
  return max_active_blocks_per_sm(kernel, block_threads, dynamic_shared_bytes) *
         multiprocessor_count_of_current_device();
}

template <class... P>
void set_max_dynamic_shared_memory(void (*kernel)(P...), std::size_t bytes) {
  detail::host::set_max_dynamic_shared(detail::host::kernel_id(kernel), bytes);
}

int device_count();
int get_device();
void set_device(int device);
device_properties get_device_properties(int device = -1);
long long get_device_attribute(device_attribute attribute, int device = -1);
void device_synchronize();

}  // namespace cohort
