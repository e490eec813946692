// Launch latency of a tiny kernel (one block of 32 threads) through the CUDA
// runtime on the host backend: on the legacy default stream of one device,
// which runs the kernel on the calling thread while nothing else is pending,
// and on a created stream, whose kernels its own thread runs. "AndSync": a
// launch and the wait for it; otherwise launches back to back, the stream
// drained after each batch of 64 (the time per launch includes the drain).
#include <benchmark/benchmark.h>
#include <cuda_runtime.h>

namespace {

__global__ void tiny(int* counter) {
  if (threadIdx.x == 0) *counter += 1;
}

constexpr int batch = 64;

void launch_and_sync(benchmark::State& state, cudaStream_t stream) {
  int* counter = nullptr;
  cudaMalloc(&counter, sizeof(int));
  for (auto _ : state) {
    tiny<<<1, 32, 0, stream>>>(counter);
    cudaStreamSynchronize(stream);
  }
  cudaFree(counter);
}

void launch_batches(benchmark::State& state, cudaStream_t stream) {
  int* counter = nullptr;
  cudaMalloc(&counter, sizeof(int));
  for (auto _ : state) {
    for (int i = 0; i < batch; ++i) tiny<<<1, 32, 0, stream>>>(counter);
    cudaStreamSynchronize(stream);
  }
  state.SetItemsProcessed(state.iterations() * batch);
  state.counters["per_launch"] = benchmark::Counter(static_cast<double>(state.iterations()) * batch,
                                                    benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  cudaFree(counter);
}

void BM_DefaultStreamLaunchAndSync(benchmark::State& state) { launch_and_sync(state, nullptr); }
void BM_DefaultStreamLaunches(benchmark::State& state) { launch_batches(state, nullptr); }

void BM_CreatedStreamLaunchAndSync(benchmark::State& state) {
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  launch_and_sync(state, stream);
  cudaStreamDestroy(stream);
}

void BM_CreatedStreamLaunches(benchmark::State& state) {
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  launch_batches(state, stream);
  cudaStreamDestroy(stream);
}

}  // namespace

BENCHMARK(BM_DefaultStreamLaunchAndSync)->Unit(benchmark::kMicrosecond)->UseRealTime();
BENCHMARK(BM_DefaultStreamLaunches)->Unit(benchmark::kMicrosecond)->UseRealTime();
BENCHMARK(BM_CreatedStreamLaunchAndSync)->Unit(benchmark::kMicrosecond)->UseRealTime();
BENCHMARK(BM_CreatedStreamLaunches)->Unit(benchmark::kMicrosecond)->UseRealTime();
