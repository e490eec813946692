// Costs of reduce and the scans on the host: time per element (one member's
// value in one collective) for tile reduce and inclusive scan, block reduce,
// and grid reduce, against a tile shuffle (the warp-level baseline, one fiber
// switch per member). Tiles and blocks: one block, one worker. Grid: a
// cooperative launch, every block on its own OS thread, so the grid barrier
// inside each grid collective is part of the cost.
#include <benchmark/benchmark.h>

#include <cohort/cohort.hpp>

namespace cg = cohort;

namespace {

constexpr int rounds = 200;

void per_element(benchmark::State& state, unsigned long long elements) {
  state.SetItemsProcessed(static_cast<long long>(state.iterations() * elements * rounds));
  state.counters["ns_per_element"] = benchmark::Counter(static_cast<double>(state.iterations() * elements * rounds),
                                                        benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

template <unsigned N>
__global__ void tile_reduces(int n, int* sink) {
  const auto tile = cg::tiled_partition<N>(cg::this_thread_block());
  int v = static_cast<int>(threadIdx.x);
  for (int r = 0; r < n; ++r) v += cg::reduce(tile, v, cg::plus<int>()) & 1;
  if (v == -1) *sink = v;
}

template <unsigned N>
__global__ void tile_scans(int n, int* sink) {
  const auto tile = cg::tiled_partition<N>(cg::this_thread_block());
  int v = static_cast<int>(threadIdx.x);
  for (int r = 0; r < n; ++r) v += cg::inclusive_scan(tile, v, cg::plus<int>()) & 1;
  if (v == -1) *sink = v;
}

__global__ void block_reduces(int n, int* sink) {
  const cg::thread_block block = cg::this_thread_block();
  int v = static_cast<int>(threadIdx.x);
  for (int r = 0; r < n; ++r) v += cg::reduce(block, v, cg::plus<int>()) & 1;
  if (v == -1) *sink = v;
}

__global__ void grid_reduces(int n, int* sink) {
  const cg::grid_group grid = cg::this_grid();
  int v = static_cast<int>(threadIdx.x);
  for (int r = 0; r < n; ++r) v += cg::reduce(grid, v, cg::plus<int>()) & 1;
  if (v == -1) *sink = v;
}

template <auto Kernel>
void one_block(benchmark::State& state) {
  const unsigned threads = static_cast<unsigned>(state.range(0));
  cg::device_buffer<int> sink(1);
  for (auto _ : state) cg::launch<Kernel>({dim3(1), dim3(threads)}, rounds, sink.data());
  per_element(state, threads);
}

void BM_TileReduce32(benchmark::State& state) { one_block<tile_reduces<32>>(state); }
void BM_TileReduce1024(benchmark::State& state) { one_block<tile_reduces<1024>>(state); }
void BM_TileInclusiveScan32(benchmark::State& state) { one_block<tile_scans<32>>(state); }
void BM_TileInclusiveScan1024(benchmark::State& state) { one_block<tile_scans<1024>>(state); }
void BM_BlockReduce(benchmark::State& state) { one_block<block_reduces>(state); }
BENCHMARK(BM_TileReduce32)->Arg(32)->Arg(1024)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_TileReduce1024)->Arg(1024)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_TileInclusiveScan32)->Arg(32)->Arg(1024)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_TileInclusiveScan1024)->Arg(1024)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_BlockReduce)->Arg(256)->Arg(1024)->Unit(benchmark::kMicrosecond);

// range(0) blocks of range(1) threads.
void BM_GridReduce(benchmark::State& state) {
  const unsigned blocks = static_cast<unsigned>(state.range(0)), threads = static_cast<unsigned>(state.range(1));
  if (static_cast<int>(blocks) > cg::max_cooperative_grid(grid_reduces, static_cast<int>(threads))) {
    state.SkipWithError("more blocks than can be co-resident on this machine");
    return;
  }
  cg::device_buffer<int> sink(1);
  for (auto _ : state) cg::launch_cooperative<grid_reduces>({dim3(blocks), dim3(threads)}, rounds, sink.data());
  per_element(state, static_cast<unsigned long long>(blocks) * threads);
}
BENCHMARK(BM_GridReduce)->Args({1, 1024})->Args({2, 256})->Args({2, 1024})->Unit(benchmark::kMicrosecond);

}  // namespace
