// The launch API around <<<>>>: device properties and the compute-capability
// guard, occupancy (cudaOccupancyMaxPotentialBlockSize, cudaFuncGetAttributes,
// cudaFuncSetAttribute for more dynamic shared memory), cudaLaunchKernel
// through a void* with void** arguments, cudaLaunchKernelEx with the
// cooperative attribute, launches through a macro and of template kernels (with
// explicit and with deduced template arguments), and
// CUDA's error semantics: a bad configuration is the last error once, not sticky.
#include <cooperative_groups.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace cg = cooperative_groups;

#define CHECK(call)                                                                       \
  do {                                                                                    \
    cudaError_t err_ = (call);                                                            \
    if (err_ != cudaSuccess) {                                                            \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_)); \
      std::exit(1);                                                                       \
    }                                                                                     \
  } while (0)

#define LAUNCH_1D(kernel, n, threads, ...) kernel<<<((n) + (threads) - 1) / (threads), (threads)>>>(__VA_ARGS__)

__global__ void arch_probe(int* path) {
#if __CUDA_ARCH__ >= 700
  if (threadIdx.x == 0 && blockIdx.x == 0) *path = 700;
#else
  if (threadIdx.x == 0 && blockIdx.x == 0) *path = 1;
#endif
}

__global__ void iota(int* out, int n, int base) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = base + i;
}

__global__ void add_one(int* data, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] += 1;
}

template <typename T>
__global__ void offset(T* data, T by, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] += by;
}

template <typename T, int Factor>
__global__ void scale(T* data, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] *= Factor;
}

__global__ void big_shared(int* out) {
  extern __shared__ int buffer[];
  const int count = 64 * 1024 / sizeof(int);
  for (int i = threadIdx.x; i < count; i += blockDim.x) buffer[i] = i;
  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = buffer[count - 1];
}

__global__ void grid_count(int* counter) {
  cg::grid_group grid = cg::this_grid();
  if (grid.thread_rank() == 0) *counter = 0;
  grid.sync();
  atomicAdd(counter, 1);
}

int main() {
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  if (prop.major < 7 || prop.warpSize != 32 || prop.multiProcessorCount < 1 || std::strlen(prop.name) == 0) {
    std::printf("unexpected properties: %s %d.%d warp %d\n", prop.name, prop.major, prop.minor, prop.warpSize);
    return 1;
  }
  int *d_out, *d_path;
  const int n = 1000;
  CHECK(cudaMalloc(&d_out, n * sizeof(int)));
  CHECK(cudaMalloc(&d_path, sizeof(int)));

  arch_probe<<<1, 32>>>(d_path);
  int path = 0;
  CHECK(cudaMemcpy(&path, d_path, sizeof path, cudaMemcpyDeviceToHost));
  if (path != 700) {
    std::printf("__CUDA_ARCH__ guard took the wrong path (%d)\n", path);
    return 1;
  }

  int min_grid = 0, block = 0;
  CHECK(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, iota, 0, 0));
  if (block < 32 || block > prop.maxThreadsPerBlock || min_grid < prop.multiProcessorCount) {
    std::printf("potential block size %d, min grid %d\n", block, min_grid);
    return 1;
  }
  int base = 5;
  int n_arg = n;
  void* args[] = {&d_out, &n_arg, &base};
  CHECK(cudaLaunchKernel((void*)iota, dim3((n + block - 1) / block), dim3(block), args, 0, nullptr));
  scale<int, 3><<<(n + 127) / 128, 128>>>(d_out, n);
  LAUNCH_1D(add_one, n, 128, d_out, n);
  offset<<<(n + 255) / 256, 256>>>(d_out, 2, n);  // T deduced from the arguments
  CHECK(cudaGetLastError());
  int host[n];
  CHECK(cudaMemcpy(host, d_out, sizeof host, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i)
    if (host[i] != 3 * (5 + i) + 3) {
      std::printf("out[%d]: got %d, expected %d\n", i, host[i], 3 * (5 + i) + 3);
      return 1;
    }

  // 64 KiB of dynamic shared memory needs the opt-in.
  const int big = 64 * 1024;
  big_shared<<<2, 128, big>>>(d_out);
  if (cudaGetLastError() == cudaSuccess) {
    std::printf("64 KiB of dynamic shared memory without cudaFuncSetAttribute should fail\n");
    return 1;
  }
  CHECK(cudaFuncSetAttribute(big_shared, cudaFuncAttributeMaxDynamicSharedMemorySize, big));
  cudaFuncAttributes attributes;
  CHECK(cudaFuncGetAttributes(&attributes, big_shared));
  if (attributes.maxDynamicSharedSizeBytes != big) {
    std::printf("maxDynamicSharedSizeBytes %d\n", attributes.maxDynamicSharedSizeBytes);
    return 1;
  }
  big_shared<<<2, 128, big>>>(d_out);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(host, d_out, 2 * sizeof(int), cudaMemcpyDeviceToHost));
  if (host[0] != big / 4 - 1 || host[1] != big / 4 - 1) {
    std::printf("big_shared: %d %d\n", host[0], host[1]);
    return 1;
  }

  // A block of 2048 threads is refused as an invalid value (CUDA 13): reported once, not sticky.
  iota<<<1, 2048>>>(d_out, n, 0);
  cudaError_t bad = cudaGetLastError();
  if (bad != cudaErrorInvalidValue || cudaGetLastError() != cudaSuccess ||
      std::strcmp(cudaGetErrorName(bad), "cudaErrorInvalidValue") != 0) {
    std::printf("a 2048-thread block gave %s\n", cudaGetErrorName(bad));
    return 1;
  }

  int per_sm = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, grid_count, 64, 0));
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(per_sm * prop.multiProcessorCount);
  config.blockDim = dim3(64);
  cudaLaunchAttribute attribute[1];
  attribute[0].id = cudaLaunchAttributeCooperative;
  attribute[0].val.cooperative = 1;
  config.attrs = attribute;
  config.numAttrs = 1;
  CHECK(cudaLaunchKernelEx(&config, grid_count, d_path));
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(&path, d_path, sizeof path, cudaMemcpyDeviceToHost));
  if (path != per_sm * prop.multiProcessorCount * 64) {
    std::printf("grid_count: %d\n", path);
    return 1;
  }
  CHECK(cudaFree(d_out));
  CHECK(cudaFree(d_path));
  std::printf("launch_api: PASS (%s, compute capability %d.%d)\n", prop.name, prop.major, prop.minor);
  return 0;
}
