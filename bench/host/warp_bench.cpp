// Costs of warp-level collectives on the host: time per lane per collective
// for shuffles on tiles of several sizes and on coalesced groups, the CUDA
// intrinsics, votes, matches, tile.sync() and coalesced_threads(). One block,
// one worker: every lane's share of each collective is one fiber switch plus
// the bookkeeping measured here.
#include <benchmark/benchmark.h>

#include <cohort/cohort.hpp>
#include <cohort/host/virtual_device.hpp>

namespace cg = cohort;

namespace {

constexpr int rounds = 200;

void report(benchmark::State& state, unsigned threads) {
  state.SetItemsProcessed(state.iterations() * threads * rounds);
  state.counters["per_lane_op"] = benchmark::Counter(static_cast<double>(state.iterations()) * threads * rounds,
                                                     benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

template <auto Kernel>
void run(benchmark::State& state) {
  const unsigned threads = static_cast<unsigned>(state.range(0));
  cg::device_buffer<int> sink(1);
  for (auto _ : state) cg::launch<Kernel>({dim3(1), dim3(threads)}, rounds, sink.data());
  report(state, threads);
}

template <unsigned N>
__global__ void tile_shuffles(int n, int* sink) {
  const auto tile = cg::tiled_partition<N>(cg::this_thread_block());
  int v = static_cast<int>(threadIdx.x);
  for (int r = 0; r < n; ++r) v += tile.shfl_xor(v, (1u + r) & (N - 1));
  if (v == -1) *sink = v;
}

void BM_TileShuffle4(benchmark::State& state) { run<tile_shuffles<4>>(state); }
void BM_TileShuffle32(benchmark::State& state) { run<tile_shuffles<32>>(state); }
void BM_TileShuffle64(benchmark::State& state) { run<tile_shuffles<64>>(state); }
void BM_TileShuffle1024(benchmark::State& state) { run<tile_shuffles<1024>>(state); }
BENCHMARK(BM_TileShuffle4)->Arg(32)->Arg(1024)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_TileShuffle32)->Arg(32)->Arg(1024)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_TileShuffle64)->Arg(64)->Arg(1024)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_TileShuffle1024)->Arg(1024)->Unit(benchmark::kMicrosecond);

// A tile of 64 at warp size 64: one warp, as on 64-lane hardware.
void BM_TileShuffle64AtWarp64(benchmark::State& state) {
  const cg::device_properties saved = cohort::host::virtual_device();
  cg::device_properties p = saved;
  p.warp_size = 64;
  cohort::host::configure(p);
  run<tile_shuffles<64>>(state);
  cohort::host::configure(saved);
}
BENCHMARK(BM_TileShuffle64AtWarp64)->Arg(64)->Arg(1024)->Unit(benchmark::kMicrosecond);

__global__ void intrinsic_shuffles(int n, int* sink) {
  int v = static_cast<int>(threadIdx.x);
  for (int r = 0; r < n; ++r) v += __shfl_xor_sync(0xFFFFFFFFu, v, (1 + r) & 31);
  if (v == -1) *sink = v;
}
void BM_IntrinsicShuffle(benchmark::State& state) { run<intrinsic_shuffles>(state); }
BENCHMARK(BM_IntrinsicShuffle)->Arg(32)->Arg(1024)->Unit(benchmark::kMicrosecond);

// Half of each warp forms a coalesced group and shuffles in it; the other
// half leaves at once.
__global__ void coalesced_shuffles(int n, int* sink) {
  if (threadIdx.x % 2 == 1) return;
  const cg::coalesced_group g = cg::coalesced_threads();
  int v = static_cast<int>(threadIdx.x);
  for (int r = 0; r < n; ++r) v += g.shfl(v, static_cast<unsigned>(r) % g.num_threads());
  if (v == -1) *sink = v;
}
void BM_CoalescedShuffle(benchmark::State& state) {
  const unsigned threads = static_cast<unsigned>(state.range(0));
  cg::device_buffer<int> sink(1);
  for (auto _ : state) cg::launch<coalesced_shuffles>({dim3(1), dim3(threads)}, rounds, sink.data());
  report(state, threads / 2);
}
BENCHMARK(BM_CoalescedShuffle)->Arg(64)->Arg(1024)->Unit(benchmark::kMicrosecond);

__global__ void tile_ballots(int n, int* sink) {
  const auto tile = cg::tiled_partition<32>(cg::this_thread_block());
  unsigned v = threadIdx.x;
  for (int r = 0; r < n; ++r) v += tile.ballot((v >> (r & 7)) & 1);
  if (v == 1) *sink = static_cast<int>(v);
}
void BM_TileBallot32(benchmark::State& state) { run<tile_ballots>(state); }
BENCHMARK(BM_TileBallot32)->Arg(32)->Arg(1024)->Unit(benchmark::kMicrosecond);

__global__ void tile_matches(int n, int* sink) {
  const auto tile = cg::tiled_partition<32>(cg::this_thread_block());
  unsigned v = threadIdx.x;
  for (int r = 0; r < n; ++r) v += tile.match_any(v % 5);
  if (v == 1) *sink = static_cast<int>(v);
}
void BM_TileMatchAny32(benchmark::State& state) { run<tile_matches>(state); }
BENCHMARK(BM_TileMatchAny32)->Arg(32)->Arg(1024)->Unit(benchmark::kMicrosecond);

__global__ void tile_syncs(int n, int* sink) {
  const auto tile = cg::tiled_partition<32>(cg::this_thread_block());
  int v = static_cast<int>(threadIdx.x);
  for (int r = 0; r < n; ++r) {
    v += r;
    tile.sync();
  }
  if (v == -1) *sink = v;
}
void BM_TileSync32(benchmark::State& state) { run<tile_syncs>(state); }
BENCHMARK(BM_TileSync32)->Arg(32)->Arg(1024)->Unit(benchmark::kMicrosecond);

__global__ void converging(int n, int* sink) {
  unsigned v = threadIdx.x;
  for (int r = 0; r < n; ++r) v += cg::coalesced_threads().num_threads();
  if (v == 1) *sink = static_cast<int>(v);
}
void BM_CoalescedThreads(benchmark::State& state) { run<converging>(state); }
BENCHMARK(BM_CoalescedThreads)->Arg(32)->Arg(1024)->Unit(benchmark::kMicrosecond);

}  // namespace
