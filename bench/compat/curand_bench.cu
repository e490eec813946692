// cuRAND's device API on the host backend: seeding a state per thread with
// its index as the subsequence (the usual Monte Carlo set-up, whose XORWOW
// jump is a matrix-vector product per set bit of the index), and drawing
// uniform numbers from seeded states; per thread and per number.
#include <benchmark/benchmark.h>
#include <cuda_runtime.h>
#include <curand_kernel.h>

namespace {

constexpr int threads = 256;

template <class State>
__global__ void seed_states(State* states, unsigned long long seed) {
  const int id = blockIdx.x * blockDim.x + threadIdx.x;
  curand_init(seed, id, 0, &states[id]);
}

template <class State>
__global__ void draw_uniform(State* states, float* sums, int draws) {
  const int id = blockIdx.x * blockDim.x + threadIdx.x;
  State local = states[id];
  float sum = 0;
  for (int k = 0; k < draws; ++k) sum += curand_uniform(&local);
  states[id] = local;
  sums[id] = sum;
}

template <class State>
void BM_CurandInit(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  State* states = nullptr;
  cudaMalloc(&states, n * sizeof(State));
  for (auto _ : state) {
    seed_states<<<n / threads, threads>>>(states, 1234);
    cudaDeviceSynchronize();
  }
  state.counters["per_thread"] = benchmark::Counter(static_cast<double>(state.iterations()) * n,
                                                    benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  cudaFree(states);
}

template <class State>
void BM_CurandUniform(benchmark::State& state) {
  const int n = 1 << 14, draws = 256;
  State* states = nullptr;
  float* sums = nullptr;
  cudaMalloc(&states, n * sizeof(State));
  cudaMalloc(&sums, n * sizeof(float));
  seed_states<<<n / threads, threads>>>(states, 1234);
  for (auto _ : state) {
    draw_uniform<<<n / threads, threads>>>(states, sums, draws);
    cudaDeviceSynchronize();
  }
  state.counters["per_number"] = benchmark::Counter(static_cast<double>(state.iterations()) * n * draws,
                                                    benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  cudaFree(states);
  cudaFree(sums);
}

}  // namespace

BENCHMARK(BM_CurandInit<curandState>)->Arg(1 << 12)->Arg(1 << 16)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_CurandInit<curandStatePhilox4_32_10_t>)->Arg(1 << 16)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_CurandUniform<curandState>)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_CurandUniform<curandStatePhilox4_32_10_t>)->Unit(benchmark::kMillisecond)->UseRealTime();
