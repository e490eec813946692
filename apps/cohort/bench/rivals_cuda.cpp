// CUB and NVIDIA's cooperative groups in cohort-cuda's benches, run and
// verified exactly as cohort's variants are, so that each table sets cohort
// against them in one run on one device. The rivals' own code is
// bench/cuda/nvidia_rivals.cuh, which the CUDA-event benchmarks time too, and
// bench/cuda/flag_multi_grid.cuh (the samples' multi-device barrier); this is
// the only source that includes them: cohort itself never does.
//
// NVIDIA's variants are launched by the CUDA runtime directly
// (cudaLaunchCooperativeKernel, cudaLaunchKernel), not by cohort's launch,
// so that their times carry none of cohort's host-side checks.
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <cstddef>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include <cohort/cohort.hpp>

#include "bench/rivals.hpp"
#include "common/grid_size.hpp"
#include "cuda/flag_multi_grid.cuh"
#include "cuda/nvidia_rivals.cuh"
#include "reduce/block_sum.hpp"

namespace cohort_cli {

namespace {

namespace ncg = cooperative_groups;

void check(cudaError_t e, const std::string& what) {
  if (e == cudaSuccess) return;
  cudaGetLastError();  // a refused launch must not resurface as a later call's error
  throw std::runtime_error(what + ": " + cudaGetErrorString(e));
}

// Arguments are converted to the kernel's parameter types, as a call
// converts them, so that their addresses are what the runtime expects.
template <class... P>
void launch_on_runtime(void (*kernel)(P...), const cohort::launch_config& config, bool cooperative,
                       std::type_identity_t<P>... args) {
  void* addresses[] = {static_cast<void*>(&args)...};
  const void* entry = reinterpret_cast<const void*>(kernel);
  if (config.cluster.x * config.cluster.y * config.cluster.z != 1) {
    cudaLaunchAttribute cluster{};
    cluster.id = cudaLaunchAttributeClusterDimension;
    cluster.val.clusterDim = {config.cluster.x, config.cluster.y, config.cluster.z};
    const cudaLaunchConfig_t ex{config.grid, config.block, config.dynamic_shared_bytes, config.stream, &cluster, 1};
    return check(cudaLaunchKernelExC(&ex, entry, addresses), "cudaLaunchKernelEx with clusters");
  }
  check(cooperative
            ? cudaLaunchCooperativeKernel(entry, config.grid, config.block, addresses, config.dynamic_shared_bytes,
                                          config.stream)
            : cudaLaunchKernel(entry, config.grid, config.block, addresses, config.dynamic_shared_bytes, config.stream),
        cooperative ? "cudaLaunchCooperativeKernel" : "cudaLaunchKernel");
}

// The flags of the samples' multi-device barrier where the samples put them:
// in the first grid's device memory when every other device has peer access
// to it (enabled here) and `memory` allows, else in mapped pinned host memory;
// allocated and zeroed once per place.
unsigned* multi_grid_flags(const std::vector<cohort::device_launch>& grids, cohort::multi_grid_memory memory) {
  constexpr std::size_t bytes = 64 * sizeof(unsigned);
  const int owner = grids[0].device;
  bool peers = memory != cohort::multi_grid_memory::pinned_host;
  for (const cohort::device_launch& g : grids) peers = peers && cohort::can_access_peer(g.device, owner);
  if (!peers) {
    static unsigned* const host = [] {
      void* p = nullptr;
      check(cudaHostAlloc(&p, bytes, cudaHostAllocMapped | cudaHostAllocPortable), "cudaHostAlloc (flags)");
      std::memset(p, 0, bytes);
      return static_cast<unsigned*>(p);
    }();
    return host;  // unified addressing: the host's address is every device's
  }
  const int caller = cohort::get_device();
  for (const cohort::device_launch& g : grids)
    if (g.device != owner) {
      check(cudaSetDevice(g.device), "cudaSetDevice");
      const cudaError_t e = cudaDeviceEnablePeerAccess(owner, 0);
      if (e != cudaErrorPeerAccessAlreadyEnabled) check(e, "cudaDeviceEnablePeerAccess");
      cudaGetLastError();
    }
  static std::vector<unsigned*> on_device;
  if (on_device.size() <= static_cast<std::size_t>(owner)) on_device.resize(static_cast<std::size_t>(owner) + 1);
  if (!on_device[owner]) {
    check(cudaSetDevice(owner), "cudaSetDevice");
    check(cudaMalloc(reinterpret_cast<void**>(&on_device[owner]), bytes), "cudaMalloc (flags)");
    check(cudaMemset(on_device[owner], 0, bytes), "cudaMemset (flags)");
    check(cudaDeviceSynchronize(), "cudaDeviceSynchronize (flags)");
  }
  check(cudaSetDevice(caller), "cudaSetDevice");
  return on_device[owner];
}

// NVIDIA's groups behind the interface kernels/sync.hpp's kernels ask for.
struct nvidia_groups {
  static __device__ ncg::thread_block block() { return ncg::this_thread_block(); }
  template <unsigned N>
  static __device__ auto tile() {
    if constexpr (N <= 32) {
      return ncg::tiled_partition<N>(ncg::this_thread_block());
    } else {
      // Tiles wider than a warp keep their barrier in block_tile_memory;
      // from sm_80 on it is empty and the hardware's reserved shared memory
      // serves instead.
      __shared__ ncg::block_tile_memory<1024> scratch;
      return ncg::tiled_partition<N>(ncg::this_thread_block(scratch));
    }
  }
  static __device__ ncg::grid_group grid() { return ncg::this_grid(); }
  static __device__ ncg::cluster_group cluster() { return ncg::this_cluster(); }
  using multi_grid_handle = nvidia_rivals::flag_multi_grid;
  static __device__ multi_grid_handle multi_grid(multi_grid_handle handle) { return handle; }

  template <auto Kernel, class... A>
  static void launch(const cohort::launch_config& config, A... args) {
    launch_on_runtime(Kernel, config, false, args...);
  }
  template <auto Kernel, class... A>
  static void launch_cooperative(const cohort::launch_config& config, A... args) {
    launch_on_runtime(Kernel, config, true, args...);
  }
  // A cooperative launch per device, as the samples make them; grid i gets its flag handle, then args_of(i).
  template <auto Kernel, class ArgsOf>
  static void launch_multi_device(const std::vector<cohort::device_launch>& grids, cohort::multi_grid_memory memory,
                                  ArgsOf args_of) {
    unsigned* const flags = multi_grid_flags(grids, memory);
    const int caller = cohort::get_device();
    const auto count = static_cast<unsigned>(grids.size());
    for (unsigned i = 0; i < count; ++i) {
      check(cudaSetDevice(grids[i].device), "cudaSetDevice");
      std::apply(
          [&](auto... a) {
            launch_on_runtime(Kernel, grids[i].config, true, multi_grid_handle{flags, i, count}, a...);
          },
          args_of(i));
    }
    check(cudaSetDevice(caller), "cudaSetDevice");
  }
};

cohort_kernels::reduce_plan plan_nvidia_cg_sum(std::size_t n) {
  using cohort_kernels::reduce_block_threads;
  const auto kernel = nvidia_rivals::cg_sum_kernel<float>;
  const unsigned grid = cohort_kernels::resident_grid(kernel, reduce_block_threads, n);
  auto block_sums = std::make_shared<cohort::device_buffer<float>>(grid);
  return {cohort_kernels::launch_text(grid, reduce_block_threads) + " cooperative",
          [grid, n, block_sums](const float* in, float* out) {
            nvidia_groups::launch_cooperative<nvidia_rivals::cg_sum_kernel<float>>({grid, reduce_block_threads}, out,
                                                                                   block_sums->data(), in, n);
          }};
}

// A CUB device-wide algorithm as a plan of cohort-cuda's tables.
template <class Plan, class T, class Algorithm>
Plan plan_cub(std::string name, std::size_t n, Algorithm algorithm) {
  const nvidia_rivals::cub_call<T, Algorithm> call(n, algorithm);
  check(call.prepared(), name + " (scratch)");
  return {name, [name, call](const T* in, T* out) { check(call(in, out), name); }};
}

cohort_kernels::reduce_plan plan_cub_sum(std::size_t n) {
  return plan_cub<cohort_kernels::reduce_plan, float>("cub::DeviceReduce::Sum", n, nvidia_rivals::cub_sum{});
}

scan_plan plan_cub_scan(std::size_t n) {
  return plan_cub<scan_plan, int>("cub::DeviceScan::InclusiveSum", n, nvidia_rivals::cub_inclusive_sum{});
}

}  // namespace

std::vector<cohort_kernels::reduce_variant> reduce_rivals() {
  return {
      {"cub", "cub::DeviceReduce::Sum", &plan_cub_sum},
      {"nvidia-cg", "one cooperative kernel: NVIDIA's tile reduce, grid.sync(), block 0 sums", &plan_nvidia_cg_sum}};
}

std::vector<scan_variant> scan_rivals() { return {{"cub", &plan_cub_scan}}; }

std::vector<sync_variant> sync_rivals() { return sync_variants<nvidia_groups>("nvidia-"); }

}  // namespace cohort_cli
