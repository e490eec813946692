// CUB and NVIDIA's cooperative groups as cohort's GPU benchmarks run them, in
// one place: the CUDA-event benchmarks (bench/cuda/array_bench.cu) and
// cohort-cuda's bench tables (apps/cohort/bench/rivals_cuda.cpp) time the
// same rival code. Kernels are templates on the element type, so that any
// number of translation units may include this.
#pragma once

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <climits>
#include <cstddef>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <memory>

namespace nvidia_rivals {

namespace ncg = cooperative_groups;

// The block's sum, valid in thread 0: each warp reduces its lanes with
// cooperative_groups::reduce, the warps' sums meet in shared memory (one per
// warp), and warp 0 reduces those.
template <class T>
__device__ T block_sum(T* warp_sums, T value) {
  const ncg::thread_block block = ncg::this_thread_block();
  const ncg::thread_block_tile<32> warp = ncg::tiled_partition<32>(block);
  value = ncg::reduce(warp, value, ncg::plus<T>());
  if (warp.thread_rank() == 0) warp_sums[warp.meta_group_rank()] = value;
  block.sync();
  if (warp.meta_group_rank() == 0) {
    const T mine = warp.thread_rank() < warp.meta_group_size() ? warp_sums[warp.thread_rank()] : T(0);
    value = ncg::reduce(warp, mine, ncg::plus<T>());
  }
  return value;
}

// Seed 000's cooperative reduction as NVIDIA's CG writes it: grid-stride
// sums, block sums, grid.sync(), block 0 sums them. warp_sums is reused
// after grid.sync(), by when warp 0 has read the first round's.
template <class T>
__global__ void cg_sum_kernel(T* out, T* block_sums, const T* __restrict__ in, std::size_t n) {
  __shared__ T warp_sums[32];
  const ncg::grid_group grid = ncg::this_grid();
  T sum = T(0);
  for (std::size_t i = grid.thread_rank(); i < n; i += grid.num_threads()) sum += in[i];
  const T mine = block_sum(warp_sums, sum);
  if (threadIdx.x == 0) block_sums[grid.block_rank()] = mine;
  grid.sync();
  if (grid.block_rank() == 0) {
    T total = T(0);
    for (unsigned long long b = threadIdx.x; b < grid.num_blocks(); b += blockDim.x) total += block_sums[b];
    total = block_sum(warp_sums, total);
    if (threadIdx.x == 0) *out = total;
  }
}

// A CUB device-wide algorithm over n elements of T, ready to run: its
// scratch is sized by a call without it and allocated once, so that runs
// time only the algorithm (at least a byte: a null scratch asks for the size
// instead of running). CUB gets an int count where the size fits, as most
// callers pass one (it then indexes with 32 bits), and the size_t beyond.
// Errors come back as the runtime's codes.
template <class T, class Algorithm>
class cub_call {
 public:
  cub_call(std::size_t n, Algorithm algorithm) : n_(n), algorithm_(algorithm) {
    status_ = with_count([&](auto count) {
      return algorithm_(nullptr, bytes_, static_cast<const T*>(nullptr), static_cast<T*>(nullptr), count);
    });
    void* scratch = nullptr;
    if (status_ == cudaSuccess) status_ = cudaMalloc(&scratch, std::max<std::size_t>(bytes_, 1));
    scratch_ = std::shared_ptr<void>(scratch, [](void* p) { cudaFree(p); });
  }

  // cudaSuccess, or why the sizing or the allocation failed.
  cudaError_t prepared() const { return status_; }

  cudaError_t operator()(const T* in, T* out) const {
    std::size_t bytes = bytes_;
    return with_count([&](auto count) { return algorithm_(scratch_.get(), bytes, in, out, count); });
  }

 private:
  template <class Call>
  cudaError_t with_count(Call call) const {
    return n_ <= static_cast<std::size_t>(INT_MAX) ? call(static_cast<int>(n_)) : call(n_);
  }

  std::size_t n_;
  Algorithm algorithm_;
  std::size_t bytes_ = 0;
  std::shared_ptr<void> scratch_;
  cudaError_t status_;
};

struct cub_sum {
  template <class T, class Count>
  cudaError_t operator()(void* scratch, std::size_t& bytes, const T* in, T* out, Count count) const {
    return cub::DeviceReduce::Sum(scratch, bytes, in, out, count);
  }
};

struct cub_inclusive_sum {
  template <class T, class Count>
  cudaError_t operator()(void* scratch, std::size_t& bytes, const T* in, T* out, Count count) const {
    return cub::DeviceScan::InclusiveSum(scratch, bytes, in, out, count);
  }
};

}  // namespace nvidia_rivals
