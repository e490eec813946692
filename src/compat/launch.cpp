// Launches, kernel attributes and occupancy. A kernel launched by address
// (void* and void** arguments) is found in a registry that typed uses of the
// kernel and cohort-cxx's registrations fill.
#include <algorithm>
#include <map>
#include <mutex>
#include <vector>

#include "l2_residency.hpp"
#include "runtime_state.hpp"
#include "stream_order.hpp"

namespace cohort::compat {

namespace {

// Kernels register from static initializers of other files, so the registry
// is built on first use.
struct kernel_registry {
  std::mutex mutex;
  std::map<const void*, kernel_entry_points> kernels;
  std::map<const void*, kernel_declaration> declarations;  // __cluster_dims__, __launch_bounds__
};

kernel_registry& registry() {
  static kernel_registry r;
  return r;
}

// cohort identifies a kernel by its address; the parameter list plays no part.
using any_kernel = void (*)();
any_kernel as_kernel(const void* func) { return reinterpret_cast<any_kernel>(const_cast<void*>(func)); }

// The launchers of the kernel at `func`, or null after reporting it unknown.
const kernel_entry_points* launchers_of(const char* call, const void* func) {
  {
    std::lock_guard lock(registry().mutex);
    const auto it = registry().kernels.find(func);
    if (it != registry().kernels.end()) return &it->second;  // entries are never removed
  }
  detail::fail(cudaErrorInvalidDeviceFunction,
               std::string(call) + ": the kernel at " + detail::address(func) +
                   " is unknown to cohort's runtime, so its parameter types are too: compile its file "
                   "with cohort-cxx (which registers every __global__ function that is not a template) or "
                   "pass the kernel itself rather than a void* to it");
  return nullptr;
}

cudaError_t launch_by_address(const char* call, const void* func, const launch_request& request, void** args) {
  if (const cudaError_t e = detail::sticky()) return e;
  const kernel_entry_points* launchers = launchers_of(call, func);
  return launchers == nullptr ? cudaErrorInvalidDeviceFunction : launchers->one_grid(call, func, request, args);
}

// What the runtime checks of a launch from the host before cohort's launch checks the rest.
cudaError_t check_request(const launch_request& request) {
  if (const cudaError_t e = detail::sticky()) return detail::fail(e, cohort::compat::error_detail(e));
  if (!detail::valid_stream(request.stream))
    return detail::fail(cudaErrorInvalidResourceHandle,
                        "launch on stream " + detail::address(request.stream) +
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

cudaError_t null_kernel_arguments(const char* call, const void* kernel, std::size_t parameters, long index) {
  const std::string what = index < 0 ? std::string("args is null") : "args[" + std::to_string(index) + "] is null";
  return detail::fail(cudaErrorInvalidValue, std::string(call) + ": " + what + ", but the kernel at " +
                                                 detail::address(kernel) + " takes " + std::to_string(parameters) +
                                                 (parameters == 1 ? " parameter" : " parameters") +
                                                 ": pass an array with a pointer to each argument");
}

std::atomic<bool> declarations_registered{false};

void register_declaration(const void* kernel, const kernel_declaration& declaration) {
  std::lock_guard lock(registry().mutex);
  registry().declarations[kernel] = declaration;
  declarations_registered.store(true);
}

kernel_declaration declaration_of(const void* kernel) {
  std::lock_guard lock(registry().mutex);
  const auto it = registry().declarations.find(kernel);
  return it == registry().declarations.end() ? kernel_declaration{} : it->second;
}

// As an H200 does (cudaErrorInvalidValue at the launch, not sticky).
cudaError_t check_launch_bound(const char* call, const void* kernel, dim3 block) {
  const int bound = declaration_of(kernel).max_threads_per_block;
  const unsigned long long threads = static_cast<unsigned long long>(block.x) * block.y * block.z;
  if (bound <= 0 || threads <= static_cast<unsigned long long>(bound)) return cudaSuccess;
  return detail::fail(cudaErrorInvalidValue, std::string(call) + ": a block of " + std::to_string(threads) +
                                                 " threads for the kernel at " + detail::address(kernel) +
                                                 ", declared __launch_bounds__(" + std::to_string(bound) +
                                                 "): a GPU refuses more than " + std::to_string(bound) +
                                                 " threads a block for it; launch smaller blocks or raise the bound");
}

void register_kernel(const void* kernel, const kernel_entry_points& entry_points) {
  std::lock_guard lock(registry().mutex);
  registry().kernels.emplace(kernel, entry_points);
}

kernel_call bind_kernel_arguments(const void* kernel, void** args) {
  const kernel_entry_points* entry_points = nullptr;
  {
    std::lock_guard lock(registry().mutex);
    const auto it = registry().kernels.find(kernel);
    if (it != registry().kernels.end()) entry_points = &it->second;  // entries are never removed
  }
  return entry_points ? entry_points->bind(kernel, args) : kernel_call{};
}

// A grid barrier in a launch that is not cooperative is told to use the CUDA runtime's call.
constexpr const char* cooperative_remedy =
    "cudaLaunchCooperativeKernel (or cudaLaunchKernelEx with cudaLaunchAttributeCooperative)";

cudaError_t run_launch(const launch_request& request, launch_body body, void* context) {
  // Dynamic parallelism: cohort's launch refuses a launch from a kernel's
  // thread. Its error is not made a code that the kernel may ignore (and the
  // host never sees): it unwinds the thread, so that the outer launch fails
  // with it as a kernel fault, sticky, as a usage error inside a kernel does.
  const bool from_kernel = cohort::host::inside_kernel();
  if (!from_kernel)
    if (const cudaError_t e = check_request(request)) return e;
  cohort::launch_config config{request.grid, request.block, request.shared_bytes, {}};
  config.cluster = request.cluster;
  try {
    if (from_kernel || detail::runs_inline(request.stream)) {
      const cohort::host::cooperative_launch_named remedy(cooperative_remedy);
      body(context, config, nullptr);
      return cudaSuccess;
    }
    std::unique_ptr<deferred_launch> launch;
    body(context, config, &launch);  // checked now: CUDA refuses a bad configuration at the launch
    return detail::enqueue("a kernel launch", request.stream, detail::task_kind::work,
                           detail::stream_task([launch = std::move(launch)](cudaError_t) {
                             const cohort::host::cooperative_launch_named remedy(cooperative_remedy);
                             launch->run();
                           }));
  } catch (const cohort::error& e) {
    if (from_kernel) throw;
    return detail::fail(e);
  } catch (const std::exception& e) {
    if (from_kernel) throw;
    return detail::fail(cudaErrorLaunchFailure, e.what(), true);
  }
}

cudaError_t run_multi_device_launch(const cudaLaunchParams* list, unsigned count, multi_device_body body,
                                    void* context) {
  std::vector<cohort::device_launch> grids;
  for (unsigned i = 0; i < count; ++i) {
    const cudaLaunchParams& p = list[i];
    if (!detail::valid_stream(p.stream)) return detail::bad_stream("cudaLaunchCooperativeKernelMultiDevice", p.stream);
    grids.push_back({detail::stream_device(p.stream), cohort::launch_config{p.gridDim, p.blockDim, p.sharedMem, {}}});
  }
  try {
    body(context, grids);
  } catch (const cohort::error& e) {
    return detail::fail(e);
  } catch (const std::exception& e) {
    return detail::fail(cudaErrorLaunchFailure, e.what(), true);
  }
  return cudaSuccess;
}

cudaError_t request_of(const cudaLaunchConfig_t* config, launch_request* request) {
  if (config == nullptr) return detail::fail(cudaErrorInvalidValue, "cudaLaunchKernelEx: null config");
  *request = {config->gridDim, config->blockDim, config->dynamicSmemBytes, config->stream, false};
  for (unsigned i = 0; i < config->numAttrs; ++i) {
    const cudaLaunchAttribute& a = config->attrs[i];
    switch (a.id) {
      case cudaLaunchAttributeIgnore:
        break;
      case cudaLaunchAttributeCooperative:
        request->cooperative = a.val.cooperative != 0;
        break;
      case cudaLaunchAttributeClusterDimension:
        request->cluster = dim3(a.val.clusterDim.x, a.val.clusterDim.y, a.val.clusterDim.z);
        break;
      // Hints a CPU has no use for (l2_residency.hpp), checked as CUDA checks them.
      case cudaLaunchAttributeAccessPolicyWindow:
        if (const cudaError_t e = detail::check_access_policy_window("cudaLaunchKernelEx", a.val.accessPolicyWindow))
          return e;
        break;
      case cudaLaunchAttributePriority:
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
  if (const int bound = declaration_of(kernel).max_threads_per_block; bound > 0) limit = std::min(limit, bound);
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

cudaError_t cudaLaunchCooperativeKernel(const void* func, dim3 grid, dim3 block, void** args, size_t sharedMem,
                                        cudaStream_t stream) {
  return launch_by_address("cudaLaunchCooperativeKernel", func, {grid, block, sharedMem, stream, true}, args);
}

cudaError_t cudaLaunchCooperativeKernelMultiDevice(cudaLaunchParams* launchParamsList, unsigned int numDevices,
                                                   unsigned int flags) {
  constexpr const char* call = "cudaLaunchCooperativeKernelMultiDevice";
  if (const cudaError_t e = detail::sticky()) return e;
  if (launchParamsList == nullptr || numDevices == 0)
    return detail::fail(cudaErrorInvalidValue, std::string(call) + ": no launches (a null list or numDevices 0)");
  if ((flags & ~unsigned{cudaCooperativeLaunchMultiDeviceNoPreSync | cudaCooperativeLaunchMultiDeviceNoPostSync}) != 0)
    return detail::fail(cudaErrorInvalidValue, std::string(call) + ": unknown flags " + std::to_string(flags));
  const void* func = launchParamsList[0].func;
  for (unsigned i = 1; i < numDevices; ++i)
    if (launchParamsList[i].func != func)
      return detail::fail(cudaErrorInvalidValue, std::string(call) + ": launch " + std::to_string(i) +
                                                     " runs another kernel than launch 0; every device's grid runs "
                                                     "the same kernel");
  const kernel_entry_points* launchers = launchers_of(call, func);
  return launchers == nullptr ? cudaErrorInvalidDeviceFunction
                              : launchers->multi_device(func, launchParamsList, numDevices);
}

cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t* config, const void* func, void** args) {
  launch_request request;
  if (const cudaError_t e = request_of(config, &request)) return e;
  return launch_by_address("cudaLaunchKernelExC", func, request, args);
}

cudaError_t cudaOccupancyMaxActiveClusters(int* numClusters, const void* func, const cudaLaunchConfig_t* config) {
  if (const cudaError_t e = detail::sticky()) return e;
  if (numClusters == nullptr || func == nullptr || config == nullptr)
    return detail::fail(cudaErrorInvalidValue, "cudaOccupancyMaxActiveClusters: a null argument");
  launch_request request;
  if (const cudaError_t e = request_of(config, &request)) return e;
  cohort::launch_config cfg{request.grid, request.block, request.shared_bytes, {}};
  cfg.cluster = request.cluster.x * request.cluster.y * request.cluster.z == 1 ? declaration_of(func).cluster_dims
                                                                               : request.cluster;
  try {
    *numClusters = cohort::max_active_clusters(as_kernel(func), cfg);
  } catch (const cohort::error& e) {
    return detail::fail(e, "cudaOccupancyMaxActiveClusters");
  }
  return cudaSuccess;
}

cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* attr, const void* func) {
  if (const cudaError_t e = detail::sticky()) return e;
  if (attr == nullptr || func == nullptr)
    return detail::fail(cudaErrorInvalidDeviceFunction, "cudaFuncGetAttributes: null attributes or kernel");
  const cohort::device_properties p = cohort::get_device_properties();
  *attr = {};
  const int bound = declaration_of(func).max_threads_per_block;
  attr->maxThreadsPerBlock = bound > 0 ? std::min(bound, p.max_threads_per_block) : p.max_threads_per_block;
  attr->ptxVersion = 90;
  attr->binaryVersion = 90;
  attr->maxDynamicSharedSizeBytes = static_cast<int>(cohort::host::kernel_dynamic_shared_limit(func));
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
  return cudaSuccess;
}

cudaError_t cudaFuncSetCacheConfig(const void*, cudaFuncCache) { return detail::sticky(); }
cudaError_t cudaFuncSetSharedMemConfig(const void*, cudaSharedMemConfig) { return detail::sticky(); }

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* numBlocks, const void* func, int blockSize,
                                                          size_t dynamicSMemSize) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, func, blockSize, dynamicSMemSize, 0);
}

// The most dynamic shared memory a block may have for numBlocks blocks to fit
// on a multiprocessor: the occupancy calculation's answer, searched.
cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t* dynamicSmemSize, const void* func, int numBlocks,
                                                      int blockSize) {
  if (const cudaError_t e = detail::sticky()) return e;
  if (dynamicSmemSize == nullptr || func == nullptr)
    return detail::fail(cudaErrorInvalidValue, "cudaOccupancyAvailableDynamicSMemPerBlock: a null argument");
  if (numBlocks <= 0 || blockSize <= 0)
    return detail::fail(cudaErrorInvalidValue, "cudaOccupancyAvailableDynamicSMemPerBlock: numBlocks " +
                                                   std::to_string(numBlocks) + " and blockSize " +
                                                   std::to_string(blockSize) + " must both be positive");
  std::size_t fits = 0, too_much = cohort::host::kernel_dynamic_shared_limit(func) + 1;
  try {
    const auto blocks_with = [&](std::size_t bytes) {
      return cohort::max_active_blocks_per_sm(as_kernel(func), blockSize, bytes);
    };
    if (blocks_with(0) < numBlocks) too_much = 0;  // not even without dynamic shared memory
    while (too_much - fits > 1) {
      const std::size_t middle = fits + (too_much - fits) / 2;
      (blocks_with(middle) >= numBlocks ? fits : too_much) = middle;
    }
  } catch (const cohort::error& e) {
    return detail::fail(e, "cudaOccupancyAvailableDynamicSMemPerBlock");
  }
  *dynamicSmemSize = fits;
  return cudaSuccess;
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
