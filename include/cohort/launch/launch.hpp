// Launching kernels and sizing grids, written once over the backend's launch
// primitives (detail/<backend>/launch.hpp): raw_launch (a checked
// configuration, the kernel and its arguments), the kernel's shared-memory
// limits and the occupancy query. A launch throws cohort::error for a bad
// configuration; the host backend's launch returns when the grid has finished
// and rethrows a diagnostic raised inside the kernel, the CUDA launch is
// asynchronous. docs/api.md lists the API.
#pragma once

#include <cstddef>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>

#include "cohort/backend.hpp"
#include "cohort/detail/kernel_arguments.hpp"
#include "cohort/detail/launch_checks.hpp"
#include "cohort/detail/remedy_api.hpp"
#include "cohort/errors.hpp"
#include "cohort/launch/device_queries.hpp"
#include "cohort/launch/launch_config.hpp"
#include "cohort/launch/stream.hpp"

#include COHORT_BACKEND_HEADER(launch.hpp)

namespace cohort {

namespace detail {

// A launch through a function pointer; a launch over the kernel's shared
// memory limit is told to raise it with `api`, the call the program knows.
// Arguments reach the kernel converted to its parameter types, as a function call (and <<<>>>) converts them.
template <class... P, class... A>
void checked_launch(void (*kernel)(P...), const launch_config& cfg, bool cooperative, const remedy_api& api,
                    A&&... args) {
  static_cast<void>(arguments_fit<void(P...), void(A && ...)>::value);
  check_launch(kernel_address(kernel), cfg, cooperative, api);
  impl::raw_launch(kernel, cfg, cooperative, std::forward<A>(args)...);
}

// set_max_dynamic_shared_memory, its refusal headed by `api`'s name.
inline void raise_shared_limit(const void* kernel, std::size_t bytes, const remedy_api& api) {
  const device_properties& p = impl::properties_of(get_device());
  const std::size_t static_bytes = impl::kernel_static_shared(kernel);
  if (bytes + static_bytes > p.shared_memory_per_block_optin) {
    std::ostringstream s;
    s << api.shared_limit_name << ": " << bytes << " bytes of dynamic shared memory plus the kernel's " << static_bytes
      << " bytes of static shared memory exceed the device's limit of " << p.shared_memory_per_block_optin
      << " bytes per block";
    throw error(errc::shared_memory_limit, s.str());
  }
  impl::set_kernel_shared_limit(kernel, bytes);
}

}  // namespace detail

template <class... P, class... A>
void launch(void (*kernel)(P...), const launch_config& cfg, A&&... args) {
  detail::checked_launch(kernel, cfg, false, detail::cohort_remedy_api, std::forward<A>(args)...);
}

template <class... P, class... A>
void launch_cooperative(void (*kernel)(P...), const launch_config& cfg, A&&... args) {
  detail::checked_launch(kernel, cfg, true, detail::cohort_remedy_api, std::forward<A>(args)...);
}

// The kernel known at compile time: the host backend calls it directly (no
// call through a pointer per thread); on CUDA it launches like the pointer form.
template <auto Kernel, class... A>
void launch(const launch_config& cfg, A&&... args) {
  static_cast<void>(detail::arguments_fit<std::remove_pointer_t<decltype(+Kernel)>, void(A && ...)>::value);
  detail::check_launch(detail::kernel_address(+Kernel), cfg, false, detail::cohort_remedy_api);
  detail::impl::raw_launch_static<Kernel>(cfg, false, std::forward<A>(args)...);
}

template <auto Kernel, class... A>
void launch_cooperative(const launch_config& cfg, A&&... args) {
  static_cast<void>(detail::arguments_fit<std::remove_pointer_t<decltype(+Kernel)>, void(A && ...)>::value);
  detail::check_launch(detail::kernel_address(+Kernel), cfg, true, detail::cohort_remedy_api);
  detail::impl::raw_launch_static<Kernel>(cfg, true, std::forward<A>(args)...);
}

template <class... P>
int max_active_blocks_per_sm(void (*kernel)(P...), int block_threads, std::size_t dynamic_shared_bytes = 0) {
  if (block_threads <= 0)
    throw error(errc::invalid_argument, "max_active_blocks_per_sm: block_threads is " + std::to_string(block_threads) +
                                            "; it must be positive");
  return detail::impl::active_blocks_per_sm(detail::kernel_address(kernel), block_threads, dynamic_shared_bytes);
}

// The largest grid a cooperative launch of `kernel` may have at this block size.
template <class... P>
int max_cooperative_grid(void (*kernel)(P...), int block_threads, std::size_t dynamic_shared_bytes = 0) {
  return max_active_blocks_per_sm(kernel, block_threads, dynamic_shared_bytes) *
         detail::impl::properties_of(get_device()).multiprocessor_count;
}

// Lets `kernel` use up to `bytes` of dynamic shared memory per block (CUDA's
// default limit is 48 KiB; the device's opt-in limit is the most it allows).
template <class... P>
void set_max_dynamic_shared_memory(void (*kernel)(P...), std::size_t bytes) {
  detail::raise_shared_limit(detail::kernel_address(kernel), bytes, detail::cohort_remedy_api);
}

}  // namespace cohort
