// The launch API on the CUDA runtime: cudaLaunchKernelEx, with the cooperative
// attribute for cooperative launches. Configurations are checked against the
// cached device properties before anything is launched (the same checks and
// messages as the host backend); a cooperative grid is held to the occupancy
// calculator's capacity before launching. What the runtime still refuses is
// explained with the kernel's own attributes.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>

#include "cohort/detail/cuda/device_queries.hpp"
#include "cohort/detail/cuda/runtime_check.hpp"
#include "cohort/detail/cuda/cluster_launch.hpp"
#include "cohort/detail/messages.hpp"
#include "cohort/detail/validate.hpp"
#include "cohort/launch/device.hpp"
#include "cohort/errors.hpp"
#include "cohort/launch/launch_config.hpp"
#include "cohort/launch/stream.hpp"

namespace cohort::detail::gpu {

template <class... P>
const void* kernel_address(void (*kernel)(P...)) {
  return reinterpret_cast<const void*>(kernel);
}

inline cudaFuncAttributes kernel_attributes(const void* kernel) {
  cudaFuncAttributes a{};
  check(cudaFuncGetAttributes(&a, kernel), "reading the kernel's attributes");
  return a;
}

inline int active_blocks_per_sm(const void* kernel, long long block_threads, std::size_t dynamic_shared_bytes) {
  if (block_threads <= 0)
    throw error(errc::invalid_argument,
                "max_active_blocks_per_sm: block_threads is " + std::to_string(block_threads) + "; it must be positive");
  int blocks = 0;
  check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, static_cast<int>(block_threads),
                                                      dynamic_shared_bytes),
        "max_active_blocks_per_sm");
  return blocks;
}

// Cooperative launches must fit on the device all at once; checked here so that
// the message is cohort's (the host backend words it the same) and so that a
// launch being captured into a graph fails now rather than at instantiation.
inline void check_cooperative_fits(const void* kernel, const launch_config& cfg, int device,
                                   const device_properties& p) {
  if (!p.cooperative_launch) throw error(errc::cooperative_unsupported, cooperative_unsupported(device));
  const unsigned long long threads = volume(cfg.block);
  const int per_sm = active_blocks_per_sm(kernel, static_cast<long long>(threads), cfg.dynamic_shared_bytes);
  const unsigned long long blocks = volume(cfg.grid);
  if (blocks > static_cast<unsigned long long>(per_sm) * p.multiprocessor_count)
    throw error(errc::cooperative_too_large,
                cooperative_too_large(blocks, per_sm, p.multiprocessor_count, threads, cfg.dynamic_shared_bytes));
}

// The runtime refused a launch that passed the device-wide checks: the limit
// that was hit is the kernel's own (registers, __launch_bounds__, static shared
// memory), so say which.
inline error launch_refused(cudaError_t e, const void* kernel, const launch_config& cfg) {
  cudaFuncAttributes a{};
  if (cudaFuncGetAttributes(&a, kernel) == cudaSuccess) {
    const unsigned long long threads = volume(cfg.block);
    if (threads > static_cast<unsigned long long>(a.maxThreadsPerBlock)) {
      std::ostringstream s;
      s << "block " << to_string(cfg.block) << " has " << threads << " threads, more than the "
        << a.maxThreadsPerBlock << " this kernel can run per block (it uses " << a.numRegs
        << " registers per thread, or __launch_bounds__ caps it); launch at most " << a.maxThreadsPerBlock
        << " threads per block";
      return error(errc::invalid_configuration, s.str());
    }
    if (cfg.dynamic_shared_bytes > static_cast<std::size_t>(a.maxDynamicSharedSizeBytes)) {
      std::ostringstream s;
      s << "dynamic shared memory of " << cfg.dynamic_shared_bytes << " bytes exceeds this kernel's limit of "
        << a.maxDynamicSharedSizeBytes << " bytes per block (it also has " << a.sharedSizeBytes
        << " bytes of static shared memory); raise it with cohort::set_max_dynamic_shared_memory";
      return error(errc::shared_memory_limit, s.str());
    }
  }
  return to_error(e, "launch of grid " + to_string(cfg.grid) + " x block " + to_string(cfg.block));
}

inline void launch_raw(const void* kernel, const launch_config& cfg, bool cooperative, void** args) {
  const int device = get_device();
  const device_properties& p = cached_properties(device);
  // The kernel's dynamic shared limit is only worth a query when the launch asks for dynamic shared memory.
  const std::size_t shared_limit =
      cfg.dynamic_shared_bytes ? static_cast<std::size_t>(kernel_attributes(kernel).maxDynamicSharedSizeBytes) : 0;
  validate_launch(p, cfg, shared_limit);
  const bool clusters = is_cluster_launch(cfg);
  if (clusters)
    check_cluster_launch(kernel, cfg, device, p, cooperative);
  else if (cooperative)
    check_cooperative_fits(kernel, cfg, device, p);

  cudaLaunchAttribute attributes[2]{};
  unsigned attribute_count = 0;
  if (cooperative) {
    attributes[attribute_count].id = cudaLaunchAttributeCooperative;
    attributes[attribute_count++].val.cooperative = 1;
  }
  if (clusters) attributes[attribute_count++] = cluster_attribute(cfg.cluster);
  cudaLaunchConfig_t config{};
  config.gridDim = cfg.grid;
  config.blockDim = cfg.block;
  config.dynamicSmemBytes = cfg.dynamic_shared_bytes;
  config.stream = cfg.stream;
  config.attrs = attribute_count ? attributes : nullptr;
  config.numAttrs = attribute_count;
  const cudaError_t e = cudaLaunchKernelExC(&config, kernel, args);
  if (e != cudaSuccess) {
    cudaGetLastError();  // a refused launch leaves no sticky error; do not let it resurface later
    throw launch_refused(e, kernel, cfg);
  }
}

// Arguments reach the kernel converted to its parameter types exactly as a
// function call (and <<<>>>) converts them: the parameters below are the
// kernel's own types, initialized from the caller's arguments.
template <class... P>
void launch_converted(void (*kernel)(P...), const launch_config& cfg, bool cooperative,
                      std::type_identity_t<P>... args) {
  void* addresses[] = {static_cast<void*>(&args)..., nullptr};
  launch_raw(kernel_address(kernel), cfg, cooperative, addresses);
}

// Readable compile errors for a wrong argument list, instead of a failed deduction.
template <class Params, class Args>
struct arguments_fit;
template <class... P, class... A>
struct arguments_fit<void(P...), void(A...)> {
  static_assert(sizeof...(P) == sizeof...(A), "cohort::launch: the kernel takes a different number of arguments");
  static constexpr bool value = [] {
    if constexpr (sizeof...(P) == sizeof...(A))
      return (std::is_convertible_v<A, P> && ...);
    else
      return false;
  }();
  static_assert(value || sizeof...(P) != sizeof...(A),
                "cohort::launch: an argument does not convert to the kernel's parameter type");
};

}  // namespace cohort::detail::gpu

namespace cohort {

template <class... P, class... A>
void launch(void (*kernel)(P...), const launch_config& cfg, A&&... args) {
  static_cast<void>(detail::gpu::arguments_fit<void(P...), void(A&&...)>::value);
  detail::gpu::launch_converted(kernel, cfg, false, std::forward<A>(args)...);
}

template <class... P, class... A>
void launch_cooperative(void (*kernel)(P...), const launch_config& cfg, A&&... args) {
  static_cast<void>(detail::gpu::arguments_fit<void(P...), void(A&&...)>::value);
  detail::gpu::launch_converted(kernel, cfg, true, std::forward<A>(args)...);
}

// On CUDA the kernel known at compile time launches exactly like the pointer form.
template <auto Kernel, class... A>
void launch(const launch_config& cfg, A&&... args) {
  cohort::launch(+Kernel, cfg, std::forward<A>(args)...);
}

template <auto Kernel, class... A>
void launch_cooperative(const launch_config& cfg, A&&... args) {
  cohort::launch_cooperative(+Kernel, cfg, std::forward<A>(args)...);
}

template <class... P>
int max_active_blocks_per_sm(void (*kernel)(P...), int block_threads, std::size_t dynamic_shared_bytes = 0) {
  return detail::gpu::active_blocks_per_sm(detail::gpu::kernel_address(kernel), block_threads, dynamic_shared_bytes);
}

template <class... P>
int max_cooperative_grid(void (*kernel)(P...), int block_threads, std::size_t dynamic_shared_bytes = 0) {
  return max_active_blocks_per_sm(kernel, block_threads, dynamic_shared_bytes) *
         detail::gpu::cached_properties(get_device()).multiprocessor_count;
}

template <class... P>
void set_max_dynamic_shared_memory(void (*kernel)(P...), std::size_t bytes) {
  const void* address = detail::gpu::kernel_address(kernel);
  const device_properties& p = detail::gpu::cached_properties(get_device());
  const cudaFuncAttributes a = detail::gpu::kernel_attributes(address);
  if (bytes + a.sharedSizeBytes > p.shared_memory_per_block_optin) {
    std::ostringstream s;
    s << "set_max_dynamic_shared_memory: " << bytes << " bytes of dynamic shared memory plus the kernel's "
      << a.sharedSizeBytes << " bytes of static shared memory exceed the device's limit of "
      << p.shared_memory_per_block_optin << " bytes per block";
    throw error(errc::shared_memory_limit, s.str());
  }
  detail::gpu::check(
      cudaFuncSetAttribute(address, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)),
      "set_max_dynamic_shared_memory");
}

}  // namespace cohort
