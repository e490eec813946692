// A header of kernels, as CUDA projects keep them: rewritten by cohort-cxx and
// CohortCudaHost.cmake because the .cu file includes it with quotes.
#pragma once

__global__ void reverse_through_shared(int* data) {
  extern __shared__ int staged[];
  staged[threadIdx.x] = data[threadIdx.x];
  __syncthreads();
  data[threadIdx.x] = staged[blockDim.x - 1 - threadIdx.x];
}

inline void reverse_on_device(int* data, int n) { reverse_through_shared<<<1, n, n * sizeof(int)>>>(data); }
