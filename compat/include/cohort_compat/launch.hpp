// How CUDA's launches reach cohort: `<<<>>>` (rewritten by cohort-cxx into
// cohort::compat::chevron), the typed cudaLaunchKernel overloads and, through
// a registry of kernels, launches by address with void** arguments.
#pragma once

#include <cstddef>
#include <type_traits>
#include <utility>

#include <memory>

#include <cohort/cohort.hpp>

#include "cohort_compat/deferred_launch.hpp"
#include "driver_types.h"

namespace cohort::compat {

struct launch_request {
  dim3 grid;
  dim3 block;
  std::size_t shared_bytes = 0;
  cudaStream_t stream = nullptr;
  bool cooperative = false;
};

// Runs the launch now (`deferred` null), or checks it and hands it back in
// `*deferred` to run when its stream's turn comes.
using launch_body = void (*)(void* context, const cohort::launch_config& config,
                             std::unique_ptr<deferred_launch>* deferred);

// A CUDA program raises a kernel's shared memory limit with cudaFuncSetAttribute
// and sizes a cooperative grid from the occupancy query: refusals name those.
inline constexpr cohort::detail::remedy_api cuda_remedy_api{
    "cudaFuncSetAttribute", "cudaFuncSetAttribute(func, cudaFuncAttributeMaxDynamicSharedMemorySize, ",
    "cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, func, ", ") times the device's multiProcessorCount"};

// Runs one launch as CUDA reports it: a sticky error answers first, the stream
// is checked, a cohort::error becomes its CUDA code (kernel faults sticky) and
// the code becomes the calling thread's last error. A launch into a stream
// with work ahead of it (stream_order.hpp) is queued: its kernel's fault
// surfaces later, as the sticky error.
cudaError_t run_launch(const launch_request& request, launch_body body, void* context);

// The launch a cudaLaunchConfig_t asks for; attributes other than cooperative
// and a 1x1x1 cluster are refused with cudaErrorNotSupported.
cudaError_t request_of(const cudaLaunchConfig_t* config, launch_request* request);

using args_launcher = cudaError_t (*)(const void* kernel, const launch_request& request, void** args);
void register_kernel(const void* kernel, args_launcher launcher);

namespace detail {

template <class... P>
cudaError_t launch_from_args(const void* kernel, const launch_request& request, void** args);

template <class... P>
const void* remember(void (*kernel)(P...)) {
  const void* address = reinterpret_cast<const void*>(kernel);
  register_kernel(address, &launch_from_args<P...>);
  return address;
}

}  // namespace detail

template <class... P, class... A>
cudaError_t launch_typed(void (*kernel)(P...), const launch_request& request, A&&... args) {
  static_assert(sizeof...(P) == sizeof...(A), "the kernel takes a different number of arguments");
  detail::remember(kernel);
  auto body = [&](const cohort::launch_config& config, std::unique_ptr<deferred_launch>* deferred) {
    if (deferred == nullptr)
      cohort::detail::checked_launch(kernel, config, request.cooperative, cuda_remedy_api, std::forward<A>(args)...);
    else
      *deferred = defer_launch(kernel, config, request.cooperative, cuda_remedy_api, std::forward<A>(args)...);
  };
  using body_type = decltype(body);
  return run_launch(
      request,
      [](void* context, const cohort::launch_config& config, std::unique_ptr<deferred_launch>* deferred) {
        (*static_cast<body_type*>(context))(config, deferred);
      },
      &body);
}

namespace detail {

template <class... P, std::size_t... I>
cudaError_t launch_unpacked(void (*kernel)(P...), const launch_request& request, void** args,
                            std::index_sequence<I...>) {
  return launch_typed(kernel, request, *static_cast<std::remove_cvref_t<P>*>(args[I])...);
}

template <class... P>
cudaError_t launch_from_args(const void* kernel, const launch_request& request, void** args) {
  auto typed = reinterpret_cast<void (*)(P...)>(const_cast<void*>(kernel));
  return launch_unpacked(typed, request, args, std::index_sequence_for<P...>{});
}

}  // namespace detail

// `kernel<<<grid, block, shared, stream>>>(args...)` as cohort-cxx rewrites it:
// chevron(kernel, grid, block, shared, stream)(args...). Like <<<>>> it
// returns nothing; its error is the last error.
template <class... P>
struct chevron_launch {
  void (*kernel)(P...);
  launch_request request;
  template <class... A>
  void operator()(A&&... args) const {
    launch_typed(kernel, request, std::forward<A>(args)...);
  }
};

template <class... P>
chevron_launch<P...> chevron(void (*kernel)(P...), dim3 grid, dim3 block, std::size_t shared_bytes = 0,
                             cudaStream_t stream = nullptr) {
  return {kernel, {grid, block, shared_bytes, stream, false}};
}

// `kernel<<<...>>>(args...)` where kernel is a function template named without
// its template arguments: cohort-cxx passes a generic thunk that calls it, and
// the thunk's instance for the arguments' types is the kernel, so the template
// arguments are deduced from the arguments as nvcc deduces them.
template <class Thunk>
struct deduced_launch {
  launch_request request;
  template <class... A>
  void operator()(A&&... args) const {
    void (*kernel)(std::decay_t<A>...) = Thunk{};
    launch_typed(kernel, request, std::forward<A>(args)...);
  }
};

template <class Thunk>
deduced_launch<Thunk> chevron_deduced(Thunk, dim3 grid, dim3 block, std::size_t shared_bytes = 0,
                                      cudaStream_t stream = nullptr) {
  return {{grid, block, shared_bytes, stream, false}};
}

// A name of its own for each registration cohort-cxx emits, also when one
// rewritten file is included into another.
#define COHORT_COMPAT_CONCAT_(a, b) a##b
#define COHORT_COMPAT_CONCAT(a, b) COHORT_COMPAT_CONCAT_(a, b)
#define COHORT_COMPAT_UNIQUE(prefix) COHORT_COMPAT_CONCAT(prefix, __COUNTER__)

// Registers a kernel defined in a .cu file so that it can be launched by
// address (cohort-cxx emits one after every __global__ function that is not a template).
template <class... P>
bool register_global(void (*kernel)(P...)) {
  detail::remember(kernel);
  return true;
}

// Symbols (__device__, __constant__, __managed__ variables) are ordinary objects
// on the host; these copy into and out of them with CUDA's checks.
cudaError_t copy_to_symbol(void* symbol, std::size_t symbol_bytes, const void* src, std::size_t count,
                           std::size_t offset, cudaMemcpyKind kind, cudaStream_t stream);
cudaError_t copy_from_symbol(void* dst, const void* symbol, std::size_t symbol_bytes, std::size_t count,
                             std::size_t offset, cudaMemcpyKind kind, cudaStream_t stream);
cudaError_t symbol_address(void** address, const void* symbol, std::size_t symbol_bytes);

// CUDA's block-size search, over the kernel's occupancy.
cudaError_t max_potential_block_size(int* min_grid, int* block_size, const void* kernel,
                                     std::size_t (*shared_for_block)(int block_size, const void* context),
                                     const void* context, int block_size_limit);

// A synchronous call's end (cudaMemcpyToSymbol and the like): `issued`, else
// the wait for the legacy default stream's work, which includes the call's own.
cudaError_t finish_synchronous(cudaError_t issued);

// The message cohort gave for the most recent error with this code, or "".
const char* error_detail(cudaError_t error);

}  // namespace cohort::compat
