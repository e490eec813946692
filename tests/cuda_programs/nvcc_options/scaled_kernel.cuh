// A quoted header with a kernel: the rewriter rewrites it, so a dependency list
// must name this file, not its rewritten copy.
#pragma once

__global__ void scaled(int* out, int factor) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = factor * i;
}
