// Two devices' kernels that wait for each other, in the shape of NVIDIA's
// conjugateGradientMultiDeviceCG sample: one cooperative kernel per device,
// each launched with cudaLaunchCooperativeKernel on a stream of its device,
// every grid summing its half of an array with grid.sync() and the two
// meeting at a hand-written barrier of flags in pinned host memory to swap
// their sums, round after round. The kernel on device 0 waits for the one
// launched after it on device 1, so each launch must return before its kernel
// has finished, as CUDA's do. Then the same meeting between two single-block
// kernels on the two devices' default streams. Needs two devices (the host
// backend: COHORT_DEVICE_COUNT=2).
#include <cooperative_groups.h>
#include <cuda/atomic>
#include <cstdio>
#include <cstdlib>

namespace cg = cooperative_groups;

#define CHECK(call)                                                                       \
  do {                                                                                    \
    cudaError_t err_ = (call);                                                            \
    if (err_ != cudaSuccess) {                                                            \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_)); \
      std::exit(1);                                                                       \
    }                                                                                     \
  } while (0)

constexpr int rounds = 4;
constexpr int threads = 128;

// The sample's barrier for two devices: device 1 raises the flag and waits
// until device 0, having seen it, lowers it again.
__device__ void meet(int* flag, int rank) {
  cuda::atomic_ref<int, cuda::thread_scope_system> f(*flag);
  if (rank == 0) {
    while (f.load(cuda::memory_order_acquire) == 0) {
    }
    f.store(0, cuda::memory_order_release);
  } else {
    f.store(1, cuda::memory_order_release);
    while (f.load(cuda::memory_order_acquire) == 1) {
    }
  }
}

// Each round: the grid sums its part (scaled by the round), publishes the sum,
// meets the other device, and adds the other device's sum to its total.
__global__ void sum_and_swap(const int* part, int n, int rank, int* flag, long long* published,
                             long long* partial, long long* total) {
  cg::grid_group grid = cg::this_grid();
  for (int r = 0; r < rounds; ++r) {
    long long mine = 0;
    for (unsigned long long i = grid.thread_rank(); i < static_cast<unsigned long long>(n); i += grid.size())
      mine += static_cast<long long>(part[i]) * (r + 1);
    atomicAdd(reinterpret_cast<unsigned long long*>(&partial[r]), static_cast<unsigned long long>(mine));
    grid.sync();
    if (grid.thread_rank() == 0) {
      published[r * 2 + rank] = partial[r];
      __threadfence_system();
      meet(flag, rank);
      __threadfence_system();
      total[r] = partial[r] + published[r * 2 + (1 - rank)];
    }
    grid.sync();
  }
}

__global__ void wait_for_flag(int* flag, int* seen) {
  cuda::atomic_ref<int, cuda::thread_scope_system> f(*flag);
  while (f.load(cuda::memory_order_acquire) == 0) {
  }
  *seen = f.load(cuda::memory_order_relaxed);
}

__global__ void raise_flag(int* flag, int value) {
  cuda::atomic_ref<int, cuda::thread_scope_system>(*flag).store(value, cuda::memory_order_release);
}

int main() {
  int devices = 0;
  CHECK(cudaGetDeviceCount(&devices));
  if (devices < 2) {
    std::printf("multi_device_flag: needs two devices, found %d: skipped\n", devices);
    return 0;
  }
  const int n = 5000;  // per device
  int* flag;
  long long* published;
  CHECK(cudaHostAlloc(&flag, sizeof(int), cudaHostAllocPortable));
  CHECK(cudaHostAlloc(&published, rounds * 2 * sizeof(long long), cudaHostAllocPortable));
  *flag = 0;

  int* part[2];
  long long *partial[2], *total[2];
  cudaStream_t stream[2];
  int blocks = 0;
  for (int d = 0; d < 2; ++d) {
    CHECK(cudaSetDevice(d));
    CHECK(cudaStreamCreate(&stream[d]));
    int host_part[n];
    for (int i = 0; i < n; ++i) host_part[i] = (i * 7 + d * 3) % 11;
    CHECK(cudaMalloc(&part[d], n * sizeof(int)));
    CHECK(cudaMalloc(&partial[d], rounds * sizeof(long long)));
    CHECK(cudaMalloc(&total[d], rounds * sizeof(long long)));
    CHECK(cudaMemcpy(part[d], host_part, n * sizeof(int), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(partial[d], 0, rounds * sizeof(long long)));
    int per_sm = 0, sms = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, sum_and_swap, threads, 0));
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, d));
    blocks = per_sm * sms < 4 ? per_sm * sms : 4;
  }

  int rank = 0;
  int nn = n;
  void* args[] = {nullptr, &nn, &rank, &flag, &published, nullptr, nullptr};
  for (int d = 0; d < 2; ++d) {
    CHECK(cudaSetDevice(d));
    args[0] = &part[d];
    args[5] = &partial[d];
    args[6] = &total[d];
    // The arguments are copied at the launch: rank changes for the next one, as in the sample.
    CHECK(cudaLaunchCooperativeKernel((void*)sum_and_swap, dim3(blocks), dim3(threads), args, 0, stream[d]));
    ++rank;
  }
  for (int d = 0; d < 2; ++d) {
    CHECK(cudaSetDevice(d));
    CHECK(cudaStreamSynchronize(stream[d]));
  }

  long long sum[2] = {0, 0};
  for (int d = 0; d < 2; ++d)
    for (int i = 0; i < n; ++i) sum[d] += (i * 7 + d * 3) % 11;
  for (int d = 0; d < 2; ++d) {
    long long got[rounds];
    CHECK(cudaSetDevice(d));
    CHECK(cudaMemcpy(got, total[d], sizeof(got), cudaMemcpyDeviceToHost));
    for (int r = 0; r < rounds; ++r)
      if (got[r] != (sum[0] + sum[1]) * (r + 1)) {
        std::printf("device %d, round %d: total %lld, expected %lld\n", d, r, got[r], (sum[0] + sum[1]) * (r + 1));
        return 1;
      }
  }

  // Default streams: device 0's kernel waits for a flag that device 1's, launched after it, raises.
  int* seen;
  CHECK(cudaMallocManaged(&seen, sizeof(int)));
  *seen = 0;
  *flag = 0;
  CHECK(cudaSetDevice(0));
  wait_for_flag<<<1, 32>>>(flag, seen);
  CHECK(cudaGetLastError());
  CHECK(cudaSetDevice(1));
  raise_flag<<<1, 1>>>(flag, 7);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaSetDevice(0));
  CHECK(cudaDeviceSynchronize());
  if (*seen != 7) {
    std::printf("default streams: the waiting kernel saw %d, expected 7\n", *seen);
    return 1;
  }

  for (int d = 0; d < 2; ++d) {
    CHECK(cudaSetDevice(d));
    CHECK(cudaStreamDestroy(stream[d]));
    CHECK(cudaFree(part[d]));
    CHECK(cudaFree(partial[d]));
    CHECK(cudaFree(total[d]));
  }
  CHECK(cudaFree(seen));
  CHECK(cudaFreeHost(flag));
  CHECK(cudaFreeHost(published));
  std::printf("multi_device_flag: PASS\n");
  return 0;
}
