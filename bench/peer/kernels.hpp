// The kernels of the side-by-side benchmark, written once in CUDA's kernel
// language and compiled unchanged against cohort's host backend and against
// HIP-CPU. The one spelling the two do not share, the warp shuffle, comes from
// the side's header as peer_shfl_xor (CUDA's __shfl_xor_sync; HIP's __shfl_xor
// with an explicit width of 32, HIP-CPU's warps being 64 wide).
#pragma once

__global__ void empty_kernel() {}

__global__ void barrier_rounds(int rounds, int* sink) {
  int x = threadIdx.x;
  for (int r = 0; r < rounds; ++r) {
    x += r;
    __syncthreads();
  }
  if (x == -1) *sink = x;
}

__global__ void shuffle_rounds(int rounds, int* sink) {
  int x = threadIdx.x;
  for (int r = 0; r < rounds; ++r) x += peer_shfl_xor(x, 1 << (r & 4));
  if (x == -1) *sink = x;
}

// The classic shared-memory tree: one element per thread, a barrier per level.
__global__ void tree_reduce(const float* in, float* block_sums) {
  __shared__ float partial[256];
  const unsigned t = threadIdx.x;
  partial[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s) partial[t] += partial[t + s];
    __syncthreads();
  }
  if (t == 0) block_sums[blockIdx.x] = partial[0];
}

__global__ void saxpy(float a, const float* x, float* y, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
