// How CUDA's launches reach cohort: `<<<>>>` (rewritten by cohort-cxx into
// cohort::compat::chevron), the typed cudaLaunchKernel overloads and, through
// a registry of kernels, launches by address with void** arguments.
#pragma once

#include <atomic>
#include <cstddef>
#include <functional>
#include <span>
#include <tuple>
#include <type_traits>
#include <utility>

#include <memory>

#include <cohort/cohort.hpp>

#include "cluster_api.hpp"
#include "cohort_compat/deferred_launch.hpp"
#include "driver_types.h"
#include "graph_capture.hpp"

namespace cohort::compat {

struct launch_request {
  dim3 grid;
  dim3 block;
  std::size_t shared_bytes = 0;
  cudaStream_t stream = nullptr;
  bool cooperative = false;
  dim3 cluster{1, 1, 1};  // blocks per thread-block cluster
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

// The launch a cudaLaunchConfig_t asks for: cooperative, a cluster shape (and
// its scheduling preference, a hint); other attributes are refused with
// cudaErrorNotSupported.
cudaError_t request_of(const cudaLaunchConfig_t* config, launch_request* request);

// What a kernel's declaration says about its launches, recorded by
// cohort-cxx's registration: __cluster_dims__ (its launches without a cluster
// attribute run in clusters of that shape) and __launch_bounds__'s most
// threads a block (a larger block is refused, as a GPU refuses it).
struct kernel_declaration {
  dim3 cluster_dims{1, 1, 1};
  int max_threads_per_block = 0;  // 0: no __launch_bounds__
};
void register_declaration(const void* kernel, const kernel_declaration& declaration);
extern std::atomic<bool> declarations_registered;
kernel_declaration declaration_of(const void* kernel);
// The refusal of a block larger than the kernel's __launch_bounds__ allow, or cudaSuccess.
cudaError_t check_launch_bound(const char* call, const void* kernel, dim3 block);

// A launch of a kernel with its arguments copied (a graph's kernel node), the
// configuration given when it runs.
using kernel_call = std::function<cudaError_t(const launch_request& request)>;

// What the runtime can do with a kernel it knows by its address, through
// these, which know its parameter types: launch one grid (`call`: the runtime
// call that launches by address, for its errors), launch one grid per device,
// bind arguments for a later launch (a graph's kernel node).
struct kernel_entry_points {
  cudaError_t (*one_grid)(const char* call, const void* kernel, const launch_request& request, void** args);
  cudaError_t (*multi_device)(const void* kernel, const cudaLaunchParams* list, unsigned count);
  kernel_call (*bind)(const void* kernel, void** args);
};
void register_kernel(const void* kernel, const kernel_entry_points& entry_points);
// The kernel_call of a kernel known to the runtime with the arguments at `args`,
// or an empty one for a kernel it does not know.
kernel_call bind_kernel_arguments(const void* kernel, void** args);

// A launch on a stream being captured: a kernel node of the capture's graph.
cudaError_t capture_kernel(cudaStream_t stream, const void* kernel, const launch_request& request, kernel_call call);

// Runs a cudaLaunchCooperativeKernelMultiDevice as CUDA reports it (see
// run_launch): checks the list, gives `body` each grid's device and shape.
using multi_device_body = void (*)(void* context, std::span<const cohort::device_launch> grids);
cudaError_t run_multi_device_launch(const cudaLaunchParams* list, unsigned count, multi_device_body body,
                                    void* context);
// Refuses a launch by address whose `args` is null, or whose entry `index`
// is (index < 0: args itself), for a kernel of `parameters` parameters:
// cudaErrorInvalidValue, as CUDA's runtime returns (rather than a crash
// reading through it).
cudaError_t null_kernel_arguments(const char* call, const void* kernel, std::size_t parameters, long index);

namespace detail {

template <class... P>
cudaError_t launch_from_args(const char* call, const void* kernel, const launch_request& request, void** args);
template <class... P>
cudaError_t launch_multi_device_from_args(const void* kernel, const cudaLaunchParams* list, unsigned count);
template <class... P>
kernel_call bind_from_args(const void* kernel, void** args);

template <class... P>
const void* remember(void (*kernel)(P...)) {
  const void* address = reinterpret_cast<const void*>(kernel);
  register_kernel(address, {&launch_from_args<P...>, &launch_multi_device_from_args<P...>, &bind_from_args<P...>});
  return address;
}

}  // namespace detail

namespace detail {

// An argument as the kernel's parameter takes it. `k<<<g, b>>>(0)` and
// `(NULL)` pass an integer by the time the launch sees it: for a pointer
// parameter that is the null pointer (nvcc accepts only a null pointer
// constant there, so any other integer is a mistake the launch reports).
template <class P, class A>
P kernel_argument(A&& argument) {
  if constexpr (std::is_pointer_v<P> && std::is_integral_v<std::remove_cvref_t<A>>) {
    if (argument != 0)
      throw cohort::error(cohort::errc::invalid_argument,
                          "an integer other than 0 passed for a kernel's pointer parameter; pass a pointer");
    return nullptr;
  } else {
    return std::forward<A>(argument);
  }
}

}  // namespace detail

template <class... P, class... A>
kernel_call bind_launch(void (*kernel)(P...), A&&... args);

template <class... P, class... A>
cudaError_t launch_typed(void (*kernel)(P...), const launch_request& request, A&&... args) {
  static_assert(sizeof...(P) == sizeof...(A), "the kernel takes a different number of arguments");
  detail::remember(kernel);
  if (capturing(request.stream)) [[unlikely]]
    return capture_kernel(request.stream, reinterpret_cast<const void*>(kernel), request,
                          bind_launch(kernel, std::forward<A>(args)...));
  // Run now, or checked now and handed back to run when its stream's turn comes.
  auto body = [&](const cohort::launch_config& config, std::unique_ptr<deferred_launch>* deferred) {
    if (deferred == nullptr)
      cohort::detail::checked_launch(kernel, config, request.cooperative, cuda_remedy_api,
                                     detail::kernel_argument<P>(std::forward<A>(args))...);
    else
      *deferred = defer_launch(kernel, config, request.cooperative, cuda_remedy_api,
                               detail::kernel_argument<P>(std::forward<A>(args))...);
  };
  using body_type = decltype(body);
  const auto run = [](void* context, const cohort::launch_config& config, std::unique_ptr<deferred_launch>* deferred) {
    (*static_cast<body_type*>(context))(config, deferred);
  };
  if (declarations_registered.load(std::memory_order_relaxed)) [[unlikely]] {
    const void* address = reinterpret_cast<const void*>(kernel);
    if (const cudaError_t e = check_launch_bound("a kernel launch", address, request.block)) return e;
    if (request.cluster.x * request.cluster.y * request.cluster.z == 1) {
      launch_request clustered = request;
      clustered.cluster = declaration_of(address).cluster_dims;
      return run_launch(clustered, run, &body);
    }
  }
  return run_launch(request, run, &body);
}

namespace detail {

template <class... P, std::size_t... I>
cudaError_t launch_unpacked(void (*kernel)(P...), const launch_request& request, void** args,
                            std::index_sequence<I...>) {
  return launch_typed(kernel, request, *static_cast<std::remove_cvref_t<P>*>(args[I])...);
}

template <class... P>
cudaError_t launch_from_args(const char* call, const void* kernel, const launch_request& request, void** args) {
  if constexpr (sizeof...(P) > 0) {
    if (args == nullptr) return null_kernel_arguments(call, kernel, sizeof...(P), -1);
    for (std::size_t i = 0; i < sizeof...(P); ++i)
      if (args[i] == nullptr) return null_kernel_arguments(call, kernel, sizeof...(P), static_cast<long>(i));
  }
  auto typed = reinterpret_cast<void (*)(P...)>(const_cast<void*>(kernel));
  return launch_unpacked(typed, request, args, std::index_sequence_for<P...>{});
}

template <class... P, std::size_t... I>
std::tuple<std::remove_cvref_t<P>...> arguments_of(void** args, std::index_sequence<I...>) {
  return {*static_cast<std::remove_cvref_t<P>*>(args[I])...};
}

template <class... P>
cudaError_t launch_multi_device_from_args(const void* kernel, const cudaLaunchParams* list, unsigned count) {
  auto typed = reinterpret_cast<void (*)(P...)>(const_cast<void*>(kernel));
  auto body = [&](std::span<const cohort::device_launch> grids) {
    cohort::launch_cooperative_multi_device(
        typed, grids, [&](std::size_t i) { return arguments_of<P...>(list[i].args, std::index_sequence_for<P...>{}); });
  };
  using body_type = decltype(body);
  return run_multi_device_launch(
      list, count,
      [](void* context, std::span<const cohort::device_launch> grids) { (*static_cast<body_type*>(context))(grids); },
      &body);
}

template <class... P, std::size_t... I>
kernel_call bind_unpacked(void (*kernel)(P...), void** args, std::index_sequence<I...>) {
  return bind_launch(kernel, *static_cast<std::remove_cvref_t<P>*>(args[I])...);
}

template <class... P>
kernel_call bind_from_args(const void* kernel, void** args) {
  auto typed = reinterpret_cast<void (*)(P...)>(const_cast<void*>(kernel));
  return bind_unpacked(typed, args, std::index_sequence_for<P...>{});
}

}  // namespace detail

// The arguments converted to the kernel's parameter types and kept, as a
// launch converts them, to be launched later (on the configuration then given).
template <class... P, class... A>
kernel_call bind_launch(void (*kernel)(P...), A&&... args) {
  return [kernel, values = std::tuple<std::remove_cvref_t<P>...>(detail::kernel_argument<P>(std::forward<A>(args))...)](
             const launch_request& request) {
    return std::apply([&](const auto&... v) { return launch_typed(kernel, request, v...); }, values);
  };
}

// `kernel<<<grid, block, shared, stream>>>(args...)` as cohort-cxx rewrites it:
// chevron(kernel, grid, block, shared, stream)(args...). Like <<<>>> it
// returns nothing; its error is the last error. The call's parameters are the
// kernel's, so that the arguments initialize them as nvcc's call does: a
// braced list makes a struct parameter (`k<<<g, b>>>(p, {6, 7})`), a literal 0
// or NULL a null pointer, and an integer variable for a pointer is a compile error.
template <class... P>
struct chevron_launch {
  void (*kernel)(P...);
  launch_request request;
  void operator()(P... args) const { launch_typed(kernel, request, std::move(args)...); }
  template <class... A>
    requires(sizeof...(A) != sizeof...(P))
  void operator()(A&&...) const {
    static_assert(sizeof...(A) == sizeof...(P), "the kernel takes a different number of arguments");
  }
};

template <class... P>
chevron_launch<P...> chevron(void (*kernel)(P...), dim3 grid, dim3 block, std::size_t shared_bytes = 0,
                             cudaStream_t stream = nullptr) {
  return {kernel, {grid, block, shared_bytes, stream, false}};
}

// `kernel<<<...>>>(args...)` where the call must be completed as nvcc does: a
// function template named without (all) its template arguments, or a kernel
// with default arguments. cohort-cxx passes a generic thunk that calls it, and
// the thunk's instance for the arguments is the kernel, so that template
// arguments are deduced and default arguments supplied by the call in the
// thunk. For a kernel that is not a template, Signature is its type, and the
// given arguments take the types of its leading parameters first. What runs is
// deduced_kernel, a kernel like any other to the loops pass (which inlines the
// thunk's call of the kernel where that reaches a barrier), not the thunk's
// function pointer, which the pass would not know for a kernel.
template <class Thunk, class... P>
__global__ void deduced_kernel(P... args) {
  Thunk{}(args...);
}

template <class Thunk, class Signature>
struct deduced_launch;

template <class Thunk>
struct deduced_launch<Thunk, void> {
  launch_request request;
  template <class... A>
  void operator()(A&&... args) const {
    launch_typed(&deduced_kernel<Thunk, std::decay_t<A>...>, request, std::forward<A>(args)...);
  }
};

template <class Thunk, class... P>
struct deduced_launch<Thunk, void (*)(P...)> {
  launch_request request;
  template <class... A>
  void operator()(A&&... args) const {
    static_assert(sizeof...(A) <= sizeof...(P), "more arguments than the kernel has parameters");
    launch_leading(std::index_sequence_for<A...>{}, std::forward<A>(args)...);
  }

 private:
  template <std::size_t... I, class... A>
  void launch_leading(std::index_sequence<I...>, A&&... args) const {
    launch_typed(&deduced_kernel<Thunk, std::tuple_element_t<I, std::tuple<P...>>...>, request,
                 std::forward<A>(args)...);
  }
};

template <class Signature = void, class Thunk>
deduced_launch<Thunk, Signature> chevron_deduced(Thunk, dim3 grid, dim3 block, std::size_t shared_bytes = 0,
                                                 cudaStream_t stream = nullptr) {
  return {{grid, block, shared_bytes, stream, false}};
}

// A name of its own for each registration cohort-cxx emits, also when one
// rewritten file is included into another.
#define COHORT_COMPAT_CONCAT_(a, b) a##b
#define COHORT_COMPAT_CONCAT(a, b) COHORT_COMPAT_CONCAT_(a, b)
#define COHORT_COMPAT_UNIQUE(prefix) COHORT_COMPAT_CONCAT(prefix, __COUNTER__)

// Registers a kernel defined in a .cu file so that it can be launched by
// address (cohort-cxx emits one after every __global__ function that is not a
// template), with its __cluster_dims__(x, y, z) and __launch_bounds__(n, ...)
// where it has them.
template <class... P>
bool register_global(void (*kernel)(P...), dim3 cluster_dims = dim3(1, 1, 1), int max_threads_per_block = 0) {
  const void* address = detail::remember(kernel);
  if (cluster_dims.x * cluster_dims.y * cluster_dims.z != 1 || max_threads_per_block > 0)
    register_declaration(address, {cluster_dims, max_threads_per_block});
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

template <class... P>
cudaError_t cudaOccupancyMaxActiveClusters(int* numClusters, void (*func)(P...), const cudaLaunchConfig_t* config) {
  return cudaOccupancyMaxActiveClusters(numClusters, cohort::compat::detail::remember(func), config);
}
