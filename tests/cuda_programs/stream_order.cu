// CUDA's order between streams, seen by work queued behind a kernel that is
// still waiting (for a flag that a kernel on a non-blocking stream, launched
// afterwards, raises): copies, host functions and events of a stream follow
// its kernels; the legacy default stream waits for a blocking stream's earlier
// work and a blocking stream for the default stream's; a synchronous
// cudaMemcpy waits for the default stream; cudaStreamWaitEvent orders two
// streams; cudaStreamPerThread is a stream of its own; the queries answer
// cudaErrorNotReady while the work waits, without making it an error.
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

#define EXPECT(condition, ...)                                      \
  do {                                                              \
    if (!(condition)) {                                             \
      std::printf("%s:%d: %s: ", __FILE__, __LINE__, #condition);   \
      std::printf(__VA_ARGS__);                                     \
      std::printf("\n");                                            \
      std::exit(1);                                                 \
    }                                                               \
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

__global__ void wait_then_write(int* flag, int* data, int value) {
  cuda::atomic_ref<int, cuda::thread_scope_system> f(*flag);
  while (f.load(cuda::memory_order_acquire) == 0) {
  }
  *data = value;
}

__global__ void add_one(int* data) { *data += 1; }
__global__ void copy_value(const int* from, int* to) { *to = *from; }

__global__ void raise_flag(int* flag) {
  cuda::atomic_ref<int, cuda::thread_scope_system>(*flag).store(1, cuda::memory_order_release);
}

struct observation {
  const int* watched;
  int seen;
};

void CUDART_CB observe(void* p) {
  auto* o = static_cast<observation*>(p);
  o->seen = *o->watched;
}

int main() {
  load(wait_then_write);
  load(add_one);
  load(copy_value);
  load(raise_flag);
  int *flag, *host_out, *data, *other;
  CHECK(cudaMallocHost(&flag, sizeof(int)));
  CHECK(cudaMallocHost(&host_out, sizeof(int)));
  CHECK(cudaMalloc(&data, sizeof(int)));
  CHECK(cudaMalloc(&other, sizeof(int)));
  cudaStream_t blocked, second, release;
  CHECK(cudaStreamCreate(&blocked));
  CHECK(cudaStreamCreateWithFlags(&second, cudaStreamNonBlocking));
  CHECK(cudaStreamCreateWithFlags(&release, cudaStreamNonBlocking));
  cudaEvent_t before, after;
  CHECK(cudaEventCreate(&before));
  CHECK(cudaEventCreate(&after));

  // In order within a stream: a copy, a host function and an event after a waiting kernel.
  *flag = 0;
  *host_out = -1;
  observation seen_by_host{host_out, -1};
  CHECK(cudaEventRecord(before, blocked));
  wait_then_write<<<1, 1, 0, blocked>>>(flag, data, 41);
  add_one<<<1, 1, 0, blocked>>>(data);
  CHECK(cudaMemcpyAsync(host_out, data, sizeof(int), cudaMemcpyDeviceToHost, blocked));
  CHECK(cudaLaunchHostFunc(blocked, observe, &seen_by_host));
  CHECK(cudaEventRecord(after, blocked));
  EXPECT(cudaStreamQuery(blocked) == cudaErrorNotReady, "the stream's kernel is still waiting");
  EXPECT(cudaEventQuery(after) == cudaErrorNotReady, "the event's work is still waiting");
  float ms = 0;
  EXPECT(cudaEventElapsedTime(&ms, before, after) == cudaErrorNotReady, "the end event is not reached yet");
  EXPECT(cudaGetLastError() == cudaSuccess, "cudaErrorNotReady is an answer, not the last error");
  raise_flag<<<1, 1, 0, release>>>(flag);
  CHECK(cudaEventSynchronize(after));
  EXPECT(*host_out == 42, "the copy after the kernels read %d", *host_out);
  EXPECT(seen_by_host.seen == 42, "the host function after the copy saw %d", seen_by_host.seen);
  CHECK(cudaStreamQuery(blocked));
  CHECK(cudaEventQuery(after));
  CHECK(cudaEventElapsedTime(&ms, before, after));
  EXPECT(ms >= 0.0f, "elapsed %f ms", ms);

  // The legacy default stream waits for a blocking stream's earlier work,
  // and a blocking stream's later work for the default stream's.
  *flag = 0;
  wait_then_write<<<1, 1, 0, blocked>>>(flag, data, 100);
  add_one<<<1, 1>>>(data);
  copy_value<<<1, 1, 0, blocked>>>(data, other);
  raise_flag<<<1, 1, 0, release>>>(flag);  // a non-blocking stream waits for neither
  int got = 0;
  CHECK(cudaMemcpy(&got, other, sizeof(int), cudaMemcpyDeviceToHost));
  EXPECT(got == 101, "after the blocking stream, the default stream, the blocking stream: %d", got);

  // A synchronous copy waits for the default stream's earlier work.
  *flag = 0;
  wait_then_write<<<1, 1>>>(flag, data, 7);
  raise_flag<<<1, 1, 0, release>>>(flag);
  CHECK(cudaMemcpy(&got, data, sizeof(int), cudaMemcpyDeviceToHost));
  EXPECT(got == 7, "the synchronous copy read %d", got);

  // cudaStreamWaitEvent: the second stream's work follows the first stream's event.
  *flag = 0;
  wait_then_write<<<1, 1, 0, blocked>>>(flag, data, 5);
  CHECK(cudaEventRecord(after, blocked));
  CHECK(cudaStreamWaitEvent(second, after, 0));
  copy_value<<<1, 1, 0, second>>>(data, other);
  CHECK(cudaMemcpyAsync(host_out, other, sizeof(int), cudaMemcpyDeviceToHost, second));
  EXPECT(cudaStreamQuery(second) == cudaErrorNotReady, "the second stream waits for the event");
  raise_flag<<<1, 1, 0, release>>>(flag);
  CHECK(cudaStreamSynchronize(second));
  EXPECT(*host_out == 5, "the stream that waited for the event read %d", *host_out);

  // cudaStreamPerThread: a stream of the calling thread's own.
  *flag = 0;
  wait_then_write<<<1, 1, 0, cudaStreamPerThread>>>(flag, data, 9);
  CHECK(cudaMemcpyAsync(host_out, data, sizeof(int), cudaMemcpyDeviceToHost, cudaStreamPerThread));
  raise_flag<<<1, 1, 0, release>>>(flag);
  CHECK(cudaStreamSynchronize(cudaStreamPerThread));
  EXPECT(*host_out == 9, "the per-thread stream's copy read %d", *host_out);

  CHECK(cudaDeviceSynchronize());
  CHECK(cudaEventDestroy(before));
  CHECK(cudaEventDestroy(after));
  CHECK(cudaStreamDestroy(blocked));
  CHECK(cudaStreamDestroy(second));
  CHECK(cudaStreamDestroy(release));
  CHECK(cudaFree(data));
  CHECK(cudaFree(other));
  CHECK(cudaFreeHost(flag));
  CHECK(cudaFreeHost(host_out));
  std::printf("stream_order: PASS\n");
  return 0;
}
