// The launch primitives of the CUDA backend: cudaLaunchKernelEx, with the
// cooperative attribute for cooperative launches, for a configuration that
// has passed cohort's checks (detail/launch_checks.hpp); what the runtime
// still refuses is explained with the kernel's own attributes. Occupancy and
// shared-memory limits come from the runtime's calculator and the kernel's
// attributes.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <sstream>
#include <type_traits>
#include <utility>

#include "cohort/detail/cuda/cluster_launch.hpp"
#include "cohort/detail/cuda/runtime/runtime_check.hpp"
#include "cohort/detail/messages.hpp"
#include "cohort/errors.hpp"
#include "cohort/launch/launch_config.hpp"

namespace cohort::detail::gpu {

inline cudaFuncAttributes kernel_attributes(const void* kernel) {
  cudaFuncAttributes a{};
  check(cudaFuncGetAttributes(&a, kernel), "reading the kernel's attributes");
  return a;
}

inline std::size_t kernel_shared_limit(const void* kernel) {
  return static_cast<std::size_t>(kernel_attributes(kernel).maxDynamicSharedSizeBytes);
}

inline std::size_t kernel_static_shared(const void* kernel) { return kernel_attributes(kernel).sharedSizeBytes; }

inline void set_kernel_shared_limit(const void* kernel, std::size_t bytes) {
  check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)),
        "set_max_dynamic_shared_memory");
}

inline int active_blocks_per_sm(const void* kernel, int block_threads, std::size_t dynamic_shared_bytes) {
  int blocks = 0;
  check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, block_threads, dynamic_shared_bytes),
        "max_active_blocks_per_sm");
  return blocks;
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
      s << "block " << to_string(cfg.block) << " has " << threads << " threads, more than the " << a.maxThreadsPerBlock
        << " this kernel can run per block (it uses " << a.numRegs
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

inline void launch_addresses(const void* kernel, const launch_config& cfg, bool cooperative, void** args) {
  cudaLaunchAttribute attributes[2]{};
  unsigned attribute_count = 0;
  if (cooperative) {
    attributes[attribute_count].id = cudaLaunchAttributeCooperative;
    attributes[attribute_count++].val.cooperative = 1;
  }
  if (is_cluster_launch(cfg)) attributes[attribute_count++] = cluster_attribute(cfg.cluster);
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

// The parameters below are the kernel's own types, initialized from the
// caller's arguments, so that the kernel receives what a call would pass it.
template <class... P>
void raw_launch(void (*kernel)(P...), const launch_config& cfg, bool cooperative, std::type_identity_t<P>... args) {
  void* addresses[] = {static_cast<void*>(&args)..., nullptr};
  launch_addresses(reinterpret_cast<const void*>(kernel), cfg, cooperative, addresses);
}

template <auto Kernel, class... A>
void raw_launch_static(const launch_config& cfg, bool cooperative, A&&... args) {
  raw_launch(+Kernel, cfg, cooperative, std::forward<A>(args)...);
}

}  // namespace cohort::detail::gpu
