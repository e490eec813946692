// CUB and NVIDIA's cooperative groups in cohort-cuda's benches, run and
// verified exactly as cohort's variants are, so that each table sets cohort
// against them in one run on one device. This is the only source that
// includes either: cohort itself never does.
//
// NVIDIA's variants are launched by the CUDA runtime directly
// (cudaLaunchCooperativeKernel, cudaLaunchKernel), not by cohort's launch,
// so that their times carry none of cohort's host-side checks.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <climits>
#include <cstddef>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>

#include <cohort/cohort.hpp>

#include "bench/rivals.hpp"
#include "common/grid_size.hpp"
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

  template <auto Kernel, class... A>
  static void launch(const cohort::launch_config& config, A... args) {
    launch_on_runtime(Kernel, config, false, args...);
  }
  template <auto Kernel, class... A>
  static void launch_cooperative(const cohort::launch_config& config, A... args) {
    launch_on_runtime(Kernel, config, true, args...);
  }
};

// The block's sum, valid in thread 0: each warp reduces its lanes with
// cooperative_groups::reduce, the warps' sums meet in shared memory (one per
// warp), and warp 0 reduces those.
__device__ float nvidia_block_sum(float* warp_sums, float value) {
  const ncg::thread_block block = ncg::this_thread_block();
  const ncg::thread_block_tile<32> warp = ncg::tiled_partition<32>(block);
  value = ncg::reduce(warp, value, ncg::plus<float>());
  if (warp.thread_rank() == 0) warp_sums[warp.meta_group_rank()] = value;
  block.sync();
  if (warp.meta_group_rank() == 0) {
    const float mine = warp.thread_rank() < warp.meta_group_size() ? warp_sums[warp.thread_rank()] : 0.0f;
    value = ncg::reduce(warp, mine, ncg::plus<float>());
  }
  return value;
}

// The cooperative reduction as NVIDIA's CG writes it: block sums,
// grid.sync(), block 0 sums them. warp_sums is reused after grid.sync(), by
// when warp 0 has read the first round's.
__global__ void nvidia_cg_sum_kernel(float* out, float* block_sums, const float* __restrict__ in, std::size_t n) {
  __shared__ float warp_sums[32];
  const ncg::grid_group grid = ncg::this_grid();
  const float block_sum = nvidia_block_sum(warp_sums, cohort_examples::grid_stride_sum(in, n));
  if (threadIdx.x == 0) block_sums[grid.block_rank()] = block_sum;
  grid.sync();
  if (grid.block_rank() == 0) {
    float sum = 0.0f;
    for (unsigned long long b = threadIdx.x; b < grid.num_blocks(); b += blockDim.x) sum += block_sums[b];
    sum = nvidia_block_sum(warp_sums, sum);
    if (threadIdx.x == 0) *out = sum;
  }
}

cohort_examples::reduce_plan plan_nvidia_cg_sum(std::size_t n) {
  using cohort_examples::reduce_block_threads;
  const unsigned grid = cohort_examples::resident_grid(nvidia_cg_sum_kernel, reduce_block_threads, n);
  auto block_sums = std::make_shared<cohort::device_buffer<float>>(grid);
  return {cohort_examples::launch_text(grid, reduce_block_threads) + " cooperative",
          [grid, n, block_sums](const float* in, float* out) {
            nvidia_groups::launch_cooperative<nvidia_cg_sum_kernel>({grid, reduce_block_threads}, out,
                                                                    block_sums->data(), in, n);
          }};
}

// CUB gets an int count where the size fits, as most callers pass one (it
// then indexes with 32 bits), and the size_t beyond.
template <class Call>
cudaError_t with_count(std::size_t n, Call call) {
  return n <= static_cast<std::size_t>(INT_MAX) ? call(static_cast<int>(n)) : call(n);
}

// A CUB device-wide algorithm over n elements. Its scratch is sized by a
// call without it and allocated once, so that runs time only the algorithm;
// at least a byte, since a null scratch asks for the size instead of running.
template <class Plan, class T, class Algorithm>
Plan plan_cub(std::string name, std::size_t n, Algorithm algorithm) {
  std::size_t bytes = 0;
  check(with_count(n,
                   [&](auto count) {
                     return algorithm(nullptr, bytes, static_cast<const T*>(nullptr), static_cast<T*>(nullptr), count);
                   }),
        name + " (scratch size)");
  auto scratch = std::make_shared<cohort::device_buffer<unsigned char>>(std::max<std::size_t>(bytes, 1));
  return {name, [name, n, bytes, scratch, algorithm](const T* in, T* out) {
            std::size_t size = bytes;
            check(with_count(n, [&](auto count) { return algorithm(scratch->data(), size, in, out, count); }), name);
          }};
}

cohort_examples::reduce_plan plan_cub_sum(std::size_t n) {
  return plan_cub<cohort_examples::reduce_plan, float>(
      "cub::DeviceReduce::Sum", n, [](void* scratch, std::size_t& bytes, const float* in, float* out, auto count) {
        return cub::DeviceReduce::Sum(scratch, bytes, in, out, count);
      });
}

scan_plan plan_cub_scan(std::size_t n) {
  return plan_cub<scan_plan, int>("cub::DeviceScan::InclusiveSum", n,
                                  [](void* scratch, std::size_t& bytes, const int* in, int* out, auto count) {
                                    return cub::DeviceScan::InclusiveSum(scratch, bytes, in, out, count);
                                  });
}

}  // namespace

std::vector<cohort_examples::reduce_variant> reduce_rivals() {
  return {
      {"cub", "cub::DeviceReduce::Sum", &plan_cub_sum},
      {"nvidia-cg", "one cooperative kernel: NVIDIA's tile reduce, grid.sync(), block 0 sums", &plan_nvidia_cg_sum}};
}

std::vector<scan_variant> scan_rivals() { return {{"cub", &plan_cub_scan}}; }

std::vector<sync_variant> sync_rivals() { return sync_variants<nvidia_groups>("nvidia-"); }

}  // namespace cohort_cli
