// What device code does with a usage error it cannot return: print a message
// naming the block and thread, then trap. The trap ends the kernel (and the
// CUDA context); the next synchronizing call on the host throws errc::runtime.
#pragma once

#include <cuda_runtime.h>

#include <cstdio>

namespace cohort::detail::gpu {

[[noreturn]] __device__ __noinline__ inline void usage_trap(const char* message) {
  printf("cohort: %s (block (%u,%u,%u), thread (%u,%u,%u)). Trapping.\n", message, blockIdx.x, blockIdx.y, blockIdx.z,
         threadIdx.x, threadIdx.y, threadIdx.z);
  __trap();
  __builtin_unreachable();
}

}  // namespace cohort::detail::gpu
