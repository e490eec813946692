// The runtime API as programs written for CUDA 12 and before call it, the way
// academic benchmark suites still do: cudaThreadSynchronize and cudaThreadExit
// (deprecated since CUDA 4, present until CUDA 13), and the multi-device
// cooperative launch with this_multi_grid() (deprecated in CUDA 12, gone from
// CUDA 13). The host runtime reports CUDA 12; nvcc 13 builds the modern path.
#include <cooperative_groups.h>
#include <cstdio>
#include <cstdlib>

namespace cg = cooperative_groups;

#define CHECK(call)                                                                              \
  do {                                                                                           \
    cudaError_t e = (call);                                                                      \
    if (e != cudaSuccess) {                                                                      \
      std::printf("%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e));          \
      std::exit(1);                                                                              \
    }                                                                                            \
  } while (0)

__global__ void square(int* data, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] *= data[i];
}

#if CUDART_VERSION < 13000
// Each grid adds its device's number into every device's cell, then, after
// the multi-grid barrier, reads what all of them wrote.
__global__ void exchange(int** cells, int devices, int* seen) {
  cg::multi_grid_group all = cg::this_multi_grid();
  const int me = static_cast<int>(all.grid_rank());
  if (threadIdx.x == 0 && blockIdx.x == 0)
    for (int d = 0; d < devices; ++d) atomicAdd(cells[d], me + 1);
  all.sync();
  if (threadIdx.x == 0 && blockIdx.x == 0) seen[me] = *cells[me];
}
#endif

int main() {
  int failures = 0;
  const int n = 1000;
  int* d = nullptr;
  CHECK(cudaMalloc(&d, n * sizeof(int)));
  int h[n];
  for (int i = 0; i < n; ++i) h[i] = i - 500;
  CHECK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
  square<<<(n + 127) / 128, 128>>>(d, n);
#if CUDART_VERSION < 13000
  CHECK(cudaThreadSynchronize());
#else
  CHECK(cudaDeviceSynchronize());
#endif
  CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i)
    if (h[i] != (i - 500) * (i - 500)) ++failures;
  CHECK(cudaFree(d));

#if CUDART_VERSION < 13000
  int devices = 0;
  CHECK(cudaGetDeviceCount(&devices));
  if (devices > 4) devices = 4;
  int* cells[4];
  int* seen = nullptr;
  cudaStream_t streams[4];
  CHECK(cudaMallocManaged(&seen, devices * sizeof(int)));
  for (int dev = 0; dev < devices; ++dev) {
    CHECK(cudaSetDevice(dev));
    CHECK(cudaMallocManaged(&cells[dev], sizeof(int)));
    *cells[dev] = 0;
    CHECK(cudaStreamCreate(&streams[dev]));
  }
  int** cell_table = nullptr;
  CHECK(cudaMallocManaged(&cell_table, sizeof cells));
  for (int dev = 0; dev < devices; ++dev) cell_table[dev] = cells[dev];
  cudaLaunchParams params[4];
  void* args[4][3];
  for (int dev = 0; dev < devices; ++dev) {
    args[dev][0] = &cell_table;
    args[dev][1] = &devices;
    args[dev][2] = &seen;
    params[dev].func = reinterpret_cast<void*>(exchange);
    params[dev].gridDim = dim3(2);
    params[dev].blockDim = dim3(32);
    params[dev].sharedMem = 0;
    params[dev].stream = streams[dev];
    params[dev].args = args[dev];
  }
  CHECK(cudaLaunchCooperativeKernelMultiDevice(params, devices, cudaCooperativeLaunchMultiDeviceNoPreSync));
  const int total = devices * (devices + 1) / 2;
  for (int dev = 0; dev < devices; ++dev)
    if (seen[dev] != total) {
      std::printf("device %d saw %d, expected %d\n", dev, seen[dev], total);
      ++failures;
    }
  std::printf("%d devices met at this_multi_grid().sync()\n", devices);
  CHECK(cudaThreadExit());
#endif
  std::printf(failures == 0 ? "Test passed\n" : "Test FAILED\n");
  return failures == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
