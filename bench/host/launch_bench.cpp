// Costs of the host execution engine: a block barrier per thread, a grid
// barrier, and a kernel without barriers against the same loop written plainly.
#include <benchmark/benchmark.h>

#include <cohort/cohort.hpp>
#include <vector>

namespace cg = cohort;

namespace {

__global__ void barriers(int rounds, int* sink) {
  int x = threadIdx.x;
  for (int r = 0; r < rounds; ++r) {
    x += r;
    __syncthreads();
  }
  if (x == -1) *sink = x;
}

// Time per thread per barrier: one block, `rounds` barriers.
void BM_BlockBarrierPerThread(benchmark::State& state) {
  const unsigned threads = static_cast<unsigned>(state.range(0));
  const int rounds = 200;
  cg::device_buffer<int> sink(1);
  for (auto _ : state) cg::launch(barriers, {dim3(1), dim3(threads)}, rounds, sink.data());
  state.SetItemsProcessed(state.iterations() * threads * rounds);
  state.counters["ns_per_thread_barrier"] =
      benchmark::Counter(static_cast<double>(state.iterations()) * threads * rounds,
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_BlockBarrierPerThread)->Arg(32)->Arg(256)->Arg(1024)->Unit(benchmark::kMicrosecond);

__global__ void grid_syncs(int rounds) {
  const cg::grid_group grid = cg::this_grid();
  for (int r = 0; r < rounds; ++r) grid.sync();
}

// Time per grid.sync() with every co-resident block of `threads` threads.
void BM_GridSync(benchmark::State& state) {
  const int threads = static_cast<int>(state.range(0));
  const int blocks = static_cast<int>(state.range(1)) ? static_cast<int>(state.range(1))
                                                      : cg::max_cooperative_grid(grid_syncs, threads);
  const int rounds = 100;
  for (auto _ : state) cg::launch_cooperative(grid_syncs, {dim3(blocks), dim3(threads)}, rounds);
  state.counters["blocks"] = blocks;
  state.counters["per_sync"] = benchmark::Counter(static_cast<double>(state.iterations()) * rounds,
                                                  benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_GridSync)->Args({32, 2})->Args({256, 2})->Args({256, 0})->Unit(benchmark::kMicrosecond)->UseRealTime();

__device__ float work(float x, float y) { return 2.5f * x + y; }

__global__ void saxpy(const float* x, float* y, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = work(x[i], y[i]);
}

constexpr unsigned elements = 1u << 22;

struct vectors {
  cg::device_buffer<float> x{std::vector<float>(elements, 1.0f)};
  cg::device_buffer<float> y{std::vector<float>(elements, 2.0f)};
};

void BM_BarrierFreeKernel(benchmark::State& state) {
  vectors v;
  const bool inlined = state.range(0) != 0;
  const cg::launch_config cfg{dim3((elements + 255) / 256), dim3(256)};
  for (auto _ : state) {
    if (inlined)
      cg::launch<saxpy>(cfg, v.x.data(), v.y.data(), elements);
    else
      cg::launch(saxpy, cfg, v.x.data(), v.y.data(), elements);
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * elements);
  state.SetLabel(inlined ? "launch<saxpy>(...)" : "launch(saxpy, ...)");
}
BENCHMARK(BM_BarrierFreeKernel)->Arg(1)->Arg(0)->Unit(benchmark::kMillisecond);

void BM_PlainLoop(benchmark::State& state) {
  vectors v;
  float* x = v.x.data();
  float* y = v.y.data();
  for (auto _ : state) {
    for (unsigned i = 0; i < elements; ++i) y[i] = work(x[i], y[i]);
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * elements);
}
BENCHMARK(BM_PlainLoop)->Unit(benchmark::kMillisecond);

}  // namespace
