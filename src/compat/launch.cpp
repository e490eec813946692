// Launches, kernel attributes and occupancy. A kernel launched by address
// (void* and void** arguments) is found in a registry that typed uses of the
// kernel and cohort-cxx's registrations fill.
#include <algorithm>
#include <map>
#include <mutex>

#include "runtime_state.hpp"
#include "stream_order.hpp"

namespace cohort::compat {

namespace {

// Kernels register from static initializers of other files, so the registry
// is built on first use.
struct kernel_registry {
  std::mutex mutex;
  std::map<const void*, args_launcher> launchers;
  std::map<const void*, int> max_dynamic_shared;  // set by cudaFuncSetAttribute
};

kernel_registry& registry() {
  static kernel_registry r;
  return r;
}

// cohort identifies a kernel by its address; the parameter list plays no part.
using any_kernel = void (*)();
any_kernel as_kernel(const void* func) { return reinterpret_cast<any_kernel>(const_cast<void*>(func)); }

cudaError_t launch_by_address(const char* call, const void* func, const launch_request& request, void** args) {
  if (const cudaError_t e = detail::sticky()) return e;
  args_launcher launcher = nullptr;
  {
    std::lock_guard lock(registry().mutex);
    const auto it = registry().launchers.find(func);
    if (it != registry().launchers.end()) launcher = it->second;
  }
  if (launcher == nullptr)
    return detail::fail(cudaErrorInvalidDeviceFunction,
                        std::string(call) + ": the kernel at " + detail::address(func) +
                            " is unknown to cohort's runtime, so its parameter types are too: compile its file "
                            "with cohort-cxx (which registers every __global__ function that is not a template) or "
                            "pass the kernel itself rather than a void* to it");
  return launcher(func, request, args);
}

// What the runtime checks of a launch from the host before cohort's launch checks the rest.
cudaError_t check_request(const launch_request& request) {
  if (const cudaError_t e = detail::sticky()) return detail::fail(e, cohort::compat::error_detail(e));
  if (!detail::valid_stream(request.stream))
    return detail::fail(cudaErrorInvalidResourceHandle, "launch on stream " + detail::address(request.stream) +
                                                            ", which was not created by cudaStreamCreate or was destroyed");
  // CUDA 13's runtime reports a block over the device's thread limit as an invalid value, not
  // as an invalid configuration (seen on an H100); cohort's own check would say the latter.
  const unsigned long long block_threads =
      static_cast<unsigned long long>(request.block.x) * request.block.y * request.block.z;
  const int max_block_threads = cohort::get_device_properties().max_threads_per_block;
  if (block_threads > static_cast<unsigned long long>(max_block_threads))
    return detail::fail(cudaErrorInvalidValue, "launch with a block of " + std::to_string(block_threads) +
                                                   " threads; the device runs at most " +
                                                   std::to_string(max_block_threads) + " per block");
  return cudaSuccess;
}

}  // namespace

void register_kernel(const void* kernel, args_launcher launcher) {
  std::lock_guard lock(registry().mutex);
  registry().launchers.emplace(kernel, launcher);
}

cudaError_t run_launch(const launch_request& request, launch_body body, void* context) {
  // Dynamic parallelism: cohort's launch refuses a launch from a kernel's
  // thread. Its error is not made a code that the kernel may ignore (and the
  // host never sees): it unwinds the thread, so that the outer launch fails
  // with it as a kernel fault, sticky, as a usage error inside a kernel does.
  const bool from_kernel = cohort::detail::host::current_block != nullptr;
  if (!from_kernel)
    if (const cudaError_t e = check_request(request)) return e;
  const cohort::launch_config config{request.grid, request.block, request.shared_bytes, {}};
  try {
    if (from_kernel || detail::runs_inline(request.stream)) {
      body(context, config, nullptr);
      return cudaSuccess;
    }
    std::unique_ptr<deferred_launch> launch;
    body(context, config, &launch);  // checked now: CUDA refuses a bad configuration at the launch
    return detail::enqueue("a kernel launch", request.stream, detail::task_kind::work,
                           detail::stream_task([launch = std::move(launch)](cudaError_t) { launch->run(); }));
  } catch (const cohort::error& e) {
    if (from_kernel) throw;
    return detail::fail(e);
  } catch (const std::exception& e) {
    if (from_kernel) throw;
    return detail::fail(cudaErrorLaunchFailure, e.what(), true);
  }
}

cudaError_t request_of(const cudaLaunchConfig_t* config, launch_request* request) {
  if (config == nullptr) return detail::fail(cudaErrorInvalidValue, "cudaLaunchKernelEx: null config");
  *request = {config->grid_dim, config->block_dim, config->dynamicSmemBytes, config->stream, false};
  for (unsigned i = 0; i < config->numAttrs; ++i) {
    const cudaLaunchAttribute& a = config->attrs[i];
    switch (a.id) {
      case cudaLaunchAttributeIgnore: break;
      case cudaLaunchAttributeCooperative: request->cooperative = a.val.cooperative != 0; break;
      case cudaLaunchAttributeClusterDimension:
        if (a.val.clusterDim.x * a.val.clusterDim.y * a.val.clusterDim.z > 1)
          return detail::fail(cudaErrorNotSupported,
                              "cudaLaunchKernelEx: thread block clusters are not supported on the host backend");
        break;
      default:
        return detail::fail(cudaErrorNotSupported, "cudaLaunchKernelEx: launch attribute " +
                                                       std::to_string(static_cast<int>(a.id)) +
                                                       " is not supported on the host backend");
    }
  }
  return cudaSuccess;
}

cudaError_t max_potential_block_size(int* min_grid, int* block_size, const void* kernel,
                                     std::size_t (*shared_for_block)(int block_size, const void* context),
                                     const void* context, int block_size_limit) {
  if (const cudaError_t e = detail::sticky()) return e;
  if (min_grid == nullptr || block_size == nullptr || kernel == nullptr)
    return detail::fail(cudaErrorInvalidValue, "cudaOccupancyMaxPotentialBlockSize: a null argument");
  const cohort::device_properties p = cohort::get_device_properties();
  int limit = p.max_threads_per_block;
  if (block_size_limit > 0) limit = std::min(limit, block_size_limit);
  const int granularity = p.warp_size;
  int best_threads = 0, best_block = 0, best_blocks = 0;
  // CUDA's search: from the largest block down, the first that fills the SM best.
  for (int threads = (limit + granularity - 1) / granularity * granularity; threads > 0; threads -= granularity) {
    const int candidate = std::min(threads, limit);
    int blocks = 0;
    try {
      blocks = cohort::max_active_blocks_per_sm(as_kernel(kernel), candidate, shared_for_block(candidate, context));
    } catch (const cohort::error&) {
      blocks = 0;  // this block size's shared memory does not fit
    }
    if (blocks * candidate > best_threads) {
      best_threads = blocks * candidate;
      best_block = candidate;
      best_blocks = blocks;
    }
    if (best_threads == p.max_threads_per_multiprocessor) break;
  }
  *block_size = best_block;
  *min_grid = best_blocks * p.multiprocessor_count;
  return cudaSuccess;
}

}  // namespace cohort::compat

using namespace cohort::compat;

cudaError_t cudaLaunchKernel(const void* func, dim3 grid, dim3 block, void** args, size_t sharedMem,
                             cudaStream_t stream) {
  return launch_by_address("cudaLaunchKernel", func, {grid, block, sharedMem, stream, false}, args);
}

cudaError_t cudaLaunchCooperativeKernel(const void* func, dim3 grid, dim3 block, void** args,
                                        size_t sharedMem, cudaStream_t stream) {
  return launch_by_address("cudaLaunchCooperativeKernel", func, {grid, block, sharedMem, stream, true}, args);
}

cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t* config, const void* func, void** args) {
  launch_request request;
  if (const cudaError_t e = request_of(config, &request)) return e;
  return launch_by_address("cudaLaunchKernelExC", func, request, args);
}

cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* attr, const void* func) {
  if (const cudaError_t e = detail::sticky()) return e;
  if (attr == nullptr || func == nullptr)
    return detail::fail(cudaErrorInvalidDeviceFunction, "cudaFuncGetAttributes: null attributes or kernel");
  const cohort::device_properties p = cohort::get_device_properties();
  *attr = {};
  attr->maxThreadsPerBlock = p.max_threads_per_block;
  attr->ptxVersion = 90;
  attr->binaryVersion = 90;
  attr->maxDynamicSharedSizeBytes = static_cast<int>(p.shared_memory_per_block);
  std::lock_guard lock(registry().mutex);
  if (const auto it = registry().max_dynamic_shared.find(func); it != registry().max_dynamic_shared.end())
    attr->maxDynamicSharedSizeBytes = it->second;
  return cudaSuccess;
}

cudaError_t cudaFuncSetAttribute(const void* func, cudaFuncAttribute attr, int value) {
  if (const cudaError_t e = detail::sticky()) return e;
  if (func == nullptr) return detail::fail(cudaErrorInvalidDeviceFunction, "cudaFuncSetAttribute: null kernel");
  if (attr == cudaFuncAttributePreferredSharedMemoryCarveout) return cudaSuccess;  // one kind of memory on a CPU
  if (attr != cudaFuncAttributeMaxDynamicSharedMemorySize)
    return detail::fail(cudaErrorInvalidValue, "cudaFuncSetAttribute: attribute " +
                                                   std::to_string(static_cast<int>(attr)) + " is not supported");
  if (value < 0) return detail::fail(cudaErrorInvalidValue, "cudaFuncSetAttribute: a negative shared memory size");
  try {
    cohort::detail::raise_shared_limit(func, static_cast<std::size_t>(value), cuda_remedy_api);
  } catch (const cohort::error& e) {
    return detail::fail(e);
  }
  std::lock_guard lock(registry().mutex);
  registry().max_dynamic_shared[func] = value;
  return cudaSuccess;
}

cudaError_t cudaFuncSetCacheConfig(const void*, cudaFuncCache) { return detail::sticky(); }
cudaError_t cudaFuncSetSharedMemConfig(const void*, cudaSharedMemConfig) { return detail::sticky(); }

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* numBlocks, const void* func, int blockSize,
                                                          size_t dynamicSMemSize) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, func, blockSize, dynamicSMemSize, 0);
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int* numBlocks, const void* func, int blockSize,
                                                                   size_t dynamicSMemSize, unsigned int) {
  if (const cudaError_t e = detail::sticky()) return e;
  if (numBlocks == nullptr || func == nullptr)
    return detail::fail(cudaErrorInvalidValue, "cudaOccupancyMaxActiveBlocksPerMultiprocessor: a null argument");
  try {
    *numBlocks = cohort::max_active_blocks_per_sm(as_kernel(func), blockSize, dynamicSMemSize);
  } catch (const cohort::error& e) {
    return detail::fail(e);
  }
  return cudaSuccess;
}
