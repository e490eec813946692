// Device code in a file of its own, called from separate_compilation_main.cu:
// nvcc's separate compilation (-rdc=true / -dc, then -dlink), as larger
// projects build their kernels.
__device__ int g_calls = 0;

__device__ float affine(float x) {
  atomicAdd(&g_calls, 1);
  return 2.0f * x + 1.0f;
}
