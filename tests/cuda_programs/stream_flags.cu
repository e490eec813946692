// Kernels of different streams of one device run at the same time, as on a
// GPU: two kernels on non-blocking streams that hand a token back and forth
// through flags in pinned memory (the first launched waits for the second);
// the same with volatile flags in managed memory; a kernel on the default
// stream that waits for one launched after it on a non-blocking stream; and a
// ring of eight streams whose kernels all wait at once, released one by one
// from the host.
#include <cuda/atomic>
#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                                       \
  do {                                                                                    \
    cudaError_t err_ = (call);                                                            \
    if (err_ != cudaSuccess) {                                                            \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_)); \
      std::exit(1);                                                                       \
    }                                                                                     \
  } while (0)

// CUDA loads a kernel at its first launch (lazy loading, Linux's default since
// CUDA 12.2), and loading may wait for the device to be idle: a kernel first
// launched while another spins waiting for it would never start (the CUDA
// programming guide, "Lazy Loading", potential hazards). So every kernel is
// loaded before any of them spins, as the guide advises.
template <class Kernel>
void load(Kernel* kernel) {
  cudaFuncAttributes attributes;
  CHECK(cudaFuncGetAttributes(&attributes, kernel));
}

constexpr int passes = 50;

__device__ int load(int* p) {
  return cuda::atomic_ref<int, cuda::thread_scope_system>(*p).load(cuda::memory_order_acquire);
}
__device__ void store(int* p, int v) {
  cuda::atomic_ref<int, cuda::thread_scope_system>(*p).store(v, cuda::memory_order_release);
}

// Player `me` (0 or 1) takes the token when it is its turn and passes it on, `passes` times.
__global__ void ping_pong(int* turn, int me, int* passes_made) {
  if (threadIdx.x != 0 || blockIdx.x != 0) return;
  for (int i = 0; i < passes; ++i) {
    while (load(turn) != me) {
    }
    ++*passes_made;
    store(turn, 1 - me);
  }
}

__global__ void ping_pong_volatile(volatile int* turn, int me, int* passes_made) {
  if (threadIdx.x != 0 || blockIdx.x != 0) return;
  for (int i = 0; i < passes; ++i) {
    while (*turn != me) {
    }
    ++*passes_made;
    __threadfence_system();
    *turn = 1 - me;
  }
}

__global__ void wait_for(int* flag, int* out, int value) {
  while (load(flag) == 0) {
  }
  *out = value;
}

__global__ void raise(int* flag) { store(flag, 1); }

// Link `i` of the ring: waits for its flag, then raises the next one.
__global__ void pass_on(int* flags, int i, int* order, int* position) {
  while (load(&flags[i]) == 0) {
  }
  order[i] = atomicAdd(position, 1);
  store(&flags[i + 1], 1);
}

int main() {
  load(ping_pong);
  load(ping_pong_volatile);
  load(wait_for);
  load(raise);
  load(pass_on);
  cudaStream_t a, b;
  CHECK(cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking));
  CHECK(cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking));

  // Player 1 waits for player 0, which is launched after it.
  int *turn, *made;
  CHECK(cudaMallocHost(&turn, sizeof(int)));
  CHECK(cudaMallocManaged(&made, 2 * sizeof(int)));
  *turn = 0;
  made[0] = made[1] = 0;
  ping_pong<<<1, 32, 0, a>>>(turn, 1, &made[1]);
  ping_pong<<<1, 32, 0, b>>>(turn, 0, &made[0]);
  CHECK(cudaStreamSynchronize(a));
  CHECK(cudaStreamSynchronize(b));
  if (made[0] != passes || made[1] != passes || *turn != 0) {
    std::printf("ping-pong: %d and %d passes, turn %d\n", made[0], made[1], *turn);
    return 1;
  }

  int* volatile_turn;
  CHECK(cudaMallocManaged(&volatile_turn, sizeof(int)));
  *volatile_turn = 0;
  made[0] = made[1] = 0;
#ifndef __SANITIZE_THREAD__  // volatile accesses race by C++'s rules, and ThreadSanitizer says so
  ping_pong_volatile<<<1, 32, 0, a>>>(volatile_turn, 1, &made[1]);
  ping_pong_volatile<<<1, 32, 0, b>>>(volatile_turn, 0, &made[0]);
  CHECK(cudaDeviceSynchronize());  // waits for the non-blocking streams too
  if (made[0] != passes || made[1] != passes) {
    std::printf("volatile ping-pong: %d and %d passes\n", made[0], made[1]);
    return 1;
  }
#endif

  // The default stream does not wait for a non-blocking stream, nor the other way round.
  int *flag, *out;
  CHECK(cudaMallocHost(&flag, sizeof(int)));
  CHECK(cudaMallocManaged(&out, sizeof(int)));
  *flag = 0;
  *out = 0;
  wait_for<<<1, 1>>>(flag, out, 3);
  raise<<<1, 1, 0, a>>>(flag);
  CHECK(cudaStreamSynchronize(0));
  if (*out != 3) {
    std::printf("default stream: the kernel wrote %d\n", *out);
    return 1;
  }

  // A ring: every link waits at once; the host raises the first flag last.
  constexpr int links = 8;
  cudaStream_t ring[links];
  int *flags, *order, *position;
  CHECK(cudaMallocHost(&flags, (links + 1) * sizeof(int)));
  CHECK(cudaMallocManaged(&order, links * sizeof(int)));
  CHECK(cudaMallocManaged(&position, sizeof(int)));
  for (int i = 0; i <= links; ++i) flags[i] = 0;
  *position = 0;
  for (int i = links - 1; i >= 0; --i) {  // the last link first: each waits for one launched after it
    CHECK(cudaStreamCreateWithFlags(&ring[i], cudaStreamNonBlocking));
    pass_on<<<1, 1, 0, ring[i]>>>(flags, i, order, position);
  }
  CHECK(cudaGetLastError());
  for (int i = 0; i < links; ++i)
    if (cudaStreamQuery(ring[i]) != cudaErrorNotReady) {
      std::printf("ring: link %d finished before the first flag was raised\n", i);
      return 1;
    }
  __atomic_store_n(&flags[0], 1, __ATOMIC_RELEASE);
  for (int i = 0; i < links; ++i) CHECK(cudaStreamSynchronize(ring[i]));
  for (int i = 0; i < links; ++i)
    if (order[i] != i) {
      std::printf("ring: link %d passed the token %d-th\n", i, order[i]);
      return 1;
    }
  for (auto& s : ring) CHECK(cudaStreamDestroy(s));

  CHECK(cudaStreamDestroy(a));
  CHECK(cudaStreamDestroy(b));
  CHECK(cudaFreeHost(turn));
  CHECK(cudaFreeHost(flag));
  CHECK(cudaFreeHost(flags));
  CHECK(cudaFree(made));
  CHECK(cudaFree(volatile_turn));
  CHECK(cudaFree(out));
  CHECK(cudaFree(order));
  CHECK(cudaFree(position));
  std::printf("stream_flags: PASS\n");
  return 0;
}
