// Work split over four streams: pinned host buffers (cudaMallocHost), async
// copies in and out and a kernel per stream, events around the whole thing
// with cudaEventElapsedTime, a host callback per stream, and checks that a
// destroyed stream and an unrecorded event are reported as CUDA reports them.
#include <cooperative_groups.h>
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

__global__ void scale_add(float* data, int n, float a, float b) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) data[i] = a * data[i] + b;
}

void CUDART_CB mark_done(void* flag) { *static_cast<int*>(flag) += 1; }

int main() {
  const int streams_count = 4, chunk = 50000, n = streams_count * chunk;
  float *host, *device;
  CHECK(cudaMallocHost(&host, n * sizeof(float)));
  CHECK(cudaMalloc(&device, n * sizeof(float)));
  for (int i = 0; i < n; ++i) host[i] = static_cast<float>(i % 1000);

  cudaStream_t streams[streams_count];
  for (auto& s : streams) CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  int callbacks = 0;

  CHECK(cudaEventRecord(start, 0));
  for (int s = 0; s < streams_count; ++s) {
    float* h = host + s * chunk;
    float* d = device + s * chunk;
    CHECK(cudaMemcpyAsync(d, h, chunk * sizeof(float), cudaMemcpyHostToDevice, streams[s]));
    scale_add<<<64, 256, 0, streams[s]>>>(d, chunk, 2.0f, static_cast<float>(s));
    CHECK(cudaMemcpyAsync(h, d, chunk * sizeof(float), cudaMemcpyDeviceToHost, streams[s]));
    CHECK(cudaLaunchHostFunc(streams[s], mark_done, &callbacks));
  }
  CHECK(cudaEventRecord(stop, 0));
  for (auto& s : streams) CHECK(cudaStreamSynchronize(s));
  CHECK(cudaEventSynchronize(stop));
  float ms = -1.0f;
  CHECK(cudaEventElapsedTime(&ms, start, stop));

  for (int i = 0; i < n; ++i) {
    const float expected = 2.0f * static_cast<float>(i % 1000) + static_cast<float>(i / chunk);
    if (host[i] != expected) {
      std::printf("host[%d]: got %f, expected %f\n", i, host[i], expected);
      return 1;
    }
  }
  if (callbacks != streams_count || !(ms >= 0.0f)) {
    std::printf("callbacks %d, elapsed %f ms\n", callbacks, ms);
    return 1;
  }

  cudaEvent_t never;
  CHECK(cudaEventCreate(&never));
  float unused;
  if (cudaEventElapsedTime(&unused, start, never) == cudaSuccess) {
    std::printf("elapsed time to an unrecorded event should fail\n");
    return 1;
  }
  (void)cudaGetLastError();
  CHECK(cudaEventDestroy(never));
  for (auto& s : streams) CHECK(cudaStreamDestroy(s));
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  CHECK(cudaFreeHost(host));
  CHECK(cudaFree(device));
  std::printf("streams_events: PASS (%.3f ms)\n", ms);
  return 0;
}
