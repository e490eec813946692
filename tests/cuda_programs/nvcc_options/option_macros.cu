// Built by nvcc_options_test.cmake with the options a Makefile written for nvcc
// passes: the macros and the pre-included header must arrive, the quoted
// header (which the rewriter rewrites: it holds a kernel) must be found, and
// the program must run.
#include <cstdio>

#include "scaled_kernel.cuh"

#if !defined(FOO) || !defined(BAR) || !defined(BAZ) || !defined(PRE_INCLUDED)
#error "a macro from -D, --define-macro or --pre-include is missing"
#endif

int main() {
  int* p = nullptr;
  cudaMalloc(&p, 64 * sizeof(int));
  scaled<<<2, 32>>>(p, FOO + BAR + BAZ);
  int h[64];
  cudaMemcpy(h, p, sizeof h, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 64; ++i)
    if (h[i] != 6 * i) return 1;
#ifdef CUDA_API_PER_THREAD_DEFAULT_STREAM
  std::printf("per-thread default stream\n");
#endif
  std::printf("option_macros: PASS\n");
  return 0;
}
